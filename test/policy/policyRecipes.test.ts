import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RULES } from "../../provider/policy/rules";
import { configProblems, type Settings } from "../../provider/policy/settings";

const root = path.resolve(__dirname, "../..");
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, asserted field by field.
const load = (file: string): any => parse(readFileSync(path.join(root, file), "utf8"));
const COMMAND = "pulumi preview --policy-pack policy --policy-pack-config policy/policy-config.json --non-interactive";

describe("the policy pack in the example and the CI recipes", () => {
  it("examples/policy/policy-config.json is a config the pack takes", () => {
    const config = JSON.parse(readFileSync(path.join(root, "examples/policy/policy-config.json"), "utf8"));
    const settings = new Map(RULES.map((rule) => [rule.id, rule.settings as Settings]));
    expect(configProblems(config, settings)).toEqual([]);
  });

  it("GitHub: pull requests run the pack from policy/ after the preview and before its comment, preflight off", () => {
    const steps: { id?: string; name?: string; run?: string; env?: Record<string, string> }[] = load(
      "examples/ci/github/preview.yml",
    ).jobs.preview.steps;
    const at = steps.findIndex((step) => step.id === "policy");
    expect(at).toBeGreaterThan(steps.findIndex((step) => step.id === "preview"));
    expect(at).toBeLessThan(steps.length - 1);
    const policy = steps[at]!;
    expect(policy.run).toContain("npm ci --prefix policy\n");
    expect(policy.run).toContain(`pulumi preview --stack "\${STACK}" --policy-pack policy --policy-pack-config`);
    expect(policy.run).toContain("--policy-pack-config policy/policy-config.json --non-interactive");
    expect(policy.env).toEqual({ STACK: `\${{ vars.PULUMI_STACK }}`, DOCS_PREFLIGHT: "false" });
  });

  it("GitLab: merge requests run the pack from policy/ in the preview stage", () => {
    const job = load("examples/ci/gitlab/.gitlab-ci.yml").policy;
    expect(job.stage).toBe("preview");
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(job.script).toEqual(["npm ci --prefix policy --cache .npm --prefer-offline", COMMAND]);
    expect(job.variables.DOCS_PREFLIGHT).toBe("false");
  });
});
