import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ciDir = path.resolve(__dirname, "../../examples/ci");
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;
const minimumNode = Number(/^>=(\d+)/.exec(require("../../package.json").engines.node)![1]);

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, asserted field by field.
type Yaml = any;
const load = (file: string): Yaml => parse(readFileSync(path.join(ciDir, file), "utf8"));
const SECRETS = ["DOCS_API_TOKEN", "PULUMI_ACCESS_TOKEN", "PULUMI_CONFIG_PASSPHRASE"];

/**
 * The CI recipes users copy. actionlint (`npm run lint:workflows`) checks the GitHub workflows' syntax, expressions
 * and the pulumi/actions inputs; these tests check that each recipe does what the README promises.
 */
describe("GitHub Actions recipes", () => {
  const workflows = Object.fromEntries(
    readdirSync(path.join(ciDir, "github")).map((file) => [file, load(`github/${file}`)]),
  );
  const pulumiStep = (workflow: Yaml) => {
    const steps = Object.values(workflow.jobs).flatMap((job: Yaml) => job.steps);
    const found = steps.filter((step: Yaml) => String(step.uses).startsWith("pulumi/actions@"));
    expect(found).toHaveLength(1);
    return found[0].with;
  };

  it("are the preview, deploy and drift workflows", () => {
    expect(Object.keys(workflows).sort()).toEqual(["deploy.yml", "drift.yml", "preview.yml"]);
  });

  it("preview pull requests with refresh and post the diff as a pull-request comment", () => {
    const workflow = workflows["preview.yml"];
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    expect(workflow.permissions["pull-requests"]).toBe("write");
    expect(pulumiStep(workflow)).toMatchObject({ command: "preview", refresh: true, "comment-on-pr": true });
    // Preflight: a wrong id or token fails the pull request, not the deploy after merging.
    expect(workflow.jobs.preview.env.DOCS_PREFLIGHT).toBe("true");
  });

  it("run up on merges to main, one at a time and never cancelled midway", () => {
    const workflow = workflows["deploy.yml"];
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
    expect(pulumiStep(workflow)).toMatchObject({ command: "up" });
  });

  it("check drift nightly with preview --refresh --expect-no-changes, and open or update an issue when it fails", () => {
    const workflow = workflows["drift.yml"];
    expect(workflow.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(pulumiStep(workflow)).toMatchObject({ command: "preview", refresh: true, "expect-no-changes": true });
    const steps = workflow.jobs.drift.steps;
    const report = steps[steps.length - 1];
    expect(report.if).toContain("failure()");
    expect(report.run).toMatch(/gh issue create/);
    expect(report.run).toMatch(/gh issue comment/);
    expect(workflow.permissions.issues).toBe("write");
    // Objects the stack does not manage fail the check too, whether or not the preview found drift.
    const unmanaged = steps.find((step: Yaml) => step.id === "unmanaged");
    expect(unmanaged.if).toBe(`\${{ !cancelled() }}`);
    expect(unmanaged.run).toMatch(/^set -o pipefail$/m);
    // As the README's nightly script: the organization comes from the stack (its config, else its resources).
    expect(unmanaged.run).toMatch(/^npx docs-platform unmanaged --stack "\$\{STACK\}" \| tee unmanaged\.txt$/m);
    expect(unmanaged.run).not.toMatch(/--organization|pulumi config get/);
    expect(report.if).toContain("steps.unmanaged.outcome == 'failure'");
    expect(report.run).toContain("unmanaged.txt");
  });

  it("take every credential from the secret store, pin the Pulumi CLI to @pulumi/pulumi and run a supported Node", () => {
    for (const [file, workflow] of Object.entries(workflows)) {
      for (const job of Object.values(workflow.jobs) as Yaml[]) {
        for (const name of SECRETS) expect(job.env[name], `${file} ${name}`).toBe(`\${{ secrets.${name} }}`);
        const setupNode = job.steps.find((step: Yaml) => String(step.uses).startsWith("actions/setup-node@"));
        expect(Number(setupNode.with["node-version"]), file).toBeGreaterThanOrEqual(minimumNode);
      }
      expect(pulumiStep(workflow)["pulumi-version"], file).toBe(pulumiVersion);
    }
  });
});

describe("GitLab CI recipe", () => {
  const pipeline = load("gitlab/.gitlab-ci.yml");
  const rules = (job: string) => pipeline[job].rules.map((rule: Yaml) => rule.if).join(" ");

  it("previews merge requests, posting the diff as a note", () => {
    expect(rules("preview")).toContain('$CI_PIPELINE_SOURCE == "merge_request_event"');
    expect(pipeline.preview.script.join("\n")).toMatch(/pulumi preview --refresh --diff/);
    expect(pipeline.preview.script.join("\n")).toMatch(/merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/);
    expect(pipeline.preview.variables.DOCS_PREFLIGHT).toBe("true");
  });

  it("runs up on the default branch, serialized per stack and not interruptible", () => {
    expect(rules("up")).toContain("$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH");
    expect(pipeline.up.resource_group).toBe("docs-$PULUMI_STACK");
    expect(pipeline.up.interruptible).toBe(false);
    expect(pipeline.up.script.join("\n")).toMatch(/pulumi up --refresh --yes/);
  });

  it("checks drift on a schedule, failing the job and then opening or updating an issue", () => {
    expect(rules("drift")).toContain('$CI_PIPELINE_SOURCE == "schedule"');
    expect(pipeline.drift.script.join("\n")).toMatch(/pulumi preview --refresh --expect-no-changes/);
    // Both checks run, and either fails the job.
    expect(pipeline.drift.script).toEqual([
      "status=0",
      expect.stringMatching(/pulumi preview --refresh --expect-no-changes .* \|\| status=\$\?$/),
      expect.stringMatching(/npx docs-platform unmanaged --stack "\$PULUMI_STACK" .* \|\| status=\$\?$/),
      "exit $status",
    ]);
    expect(pipeline.drift.script.join("\n")).not.toMatch(/--organization|pulumi config get/);
    expect(pipeline.drift.artifacts.paths).toEqual(["drift.txt", "unmanaged.txt"]);
    expect(pipeline["drift-issue"].rules[0].when).toBe("on_failure");
    expect(pipeline["drift-issue"].needs).toEqual(["drift"]);
  });

  it("keeps a failing pulumi command failing through its pipe, and pins the CLI to @pulumi/pulumi", () => {
    const lines = ["preview", "up", "drift"].flatMap((job) => pipeline[job].script as string[]);
    for (const line of lines.filter((l) => /pulumi \w+.*\| tee/.test(l))) expect(line).toMatch(/^set -o pipefail;/);
    expect(pipeline.default.before_script.join("\n")).toContain(`--version ${pulumiVersion}`);
    expect(Number(/node:(\d+)/.exec(pipeline.default.image)![1])).toBeGreaterThanOrEqual(minimumNode);
  });

  it("defines no credential in the file: they are CI/CD variables", () => {
    const text = readFileSync(path.join(ciDir, "gitlab/.gitlab-ci.yml"), "utf8");
    for (const name of SECRETS) expect(text).not.toMatch(new RegExp(`^\\s*${name}:`, "m"));
    expect(pipeline.variables).toBeUndefined();
  });
});
