import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { organizationsInState } from "../../cli/unmanaged";
import { restoreEnvAfterEach, runCli, stateFile, stateResource, useTempDirs } from "../support/cli";
import { useEmulator } from "../support/emulator";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-fake-pulumi-");
restoreEnvAfterEach("PATH", "DOCS_ORGANIZATION_ID");

const resource = (kind: string, id: string, organization: string) =>
  stateResource(kind, id, {
    urn: `urn:pulumi:production::docs::pulumi-nodejs:dynamic/docs:${kind}::${id}`,
    inputs: { organizationId: organization },
    outputs: { organizationId: organization },
  });

/**
 * A `pulumi` on the PATH that answers the two commands `unmanaged` runs, `stack export` and `config get`, from files,
 * and logs every call: the organization's resolution without the real CLI (test/e2e/drift-script.test.ts runs that).
 */
let dir: string;
const fakePulumi = (resources: unknown[], configured?: string) => {
  stateFile(dir, resources);
  if (configured === undefined) rmSync(path.join(dir, "organization"), { force: true });
  else writeFileSync(path.join(dir, "organization"), `${configured}\n`);
};
const pulumiCalls = () => {
  const log = path.join(dir, "calls.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
};

beforeEach(() => {
  dir = tempDir();
  const script = path.join(dir, "pulumi");
  writeFileSync(
    script,
    `#!/bin/sh
echo "$*" >> "${dir}/calls.log"
case "$1 $2" in
  "stack export") cat "${dir}/state.json" ;;
  "config get")
    if [ -f "${dir}/organization" ]; then cat "${dir}/organization"; exit 0; fi
    echo "error: configuration key '$3' not found for stack 'production'" >&2; exit 255 ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(script, 0o755);
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
  delete process.env.DOCS_ORGANIZATION_ID;
});

describe("unmanaged finds the organization when the command line names none", () => {
  it("takes the stack's docs:organizationId, the provider's own default, before the state", async () => {
    fakePulumi([resource("Collection", "c1", fx.emulator.secondOrganizationId)], fx.org());
    const run = await runCli(["unmanaged", "--stack", "production", "--json"]);
    expect(run.code).toBe(EXIT.ok);
    expect(JSON.parse(run.stdout).organizationId).toBe(fx.org());
    expect(pulumiCalls()).toEqual([
      "stack export --non-interactive --stack production",
      "config get docs:organizationId --non-interactive --stack production",
    ]);
  });

  it("without docs:organizationId, takes the one organization of the state's resources, as `import` writes them", async () => {
    const handMade = await fx.apiCreate(`/orgs/${fx.org()}/collections`, { title: "Scratch" });
    fakePulumi([resource("Collection", "adopted", fx.org()), resource("Team", "t", fx.org())]);
    const run = await runCli(["unmanaged", "--stack", "production"]);
    expect(run.code).toBe(EXIT.found);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      `Organization ${fx.org()}: 1 object(s) not managed by the stack (2 resources):\n` +
        `  Collection\n    ${handMade}  "Scratch"\n`,
    );
    expect(pulumiCalls()).toEqual([
      "stack export --non-interactive --stack production",
      "config get docs:organizationId --non-interactive --stack production",
    ]);
  });

  it("asks for --organization, naming them, when the state's resources belong to several organizations", async () => {
    const second = fx.emulator.secondOrganizationId;
    fakePulumi([resource("Collection", "a", fx.org()), resource("Site", "b", second)]);
    const run = await runCli(["unmanaged"]);
    expect(run.code).toBe(EXIT.usage);
    const [first, last] = [fx.org(), second].sort();
    expect(run.stderr).toBe(
      `docs-platform: the stack's resources belong to 2 organizations (${first}, ${last}): choose one with ` +
        "--organization <id> (or DOCS_ORGANIZATION_ID)\nRun `docs-platform --help` for usage.\n",
    );
    expect(fx.emulator.requests()).toEqual([]);
  });

  it("is a usage error naming each place it looked when neither the config nor the state names one", async () => {
    fakePulumi([{ type: "pulumi:pulumi:Stack", urn: "urn:pulumi:production::docs::pulumi:pulumi:Stack::x" }]);
    const run = await runCli(["unmanaged"]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain(
      "--organization is required (or set DOCS_ORGANIZATION_ID): the stack's config has no docs:organizationId, " +
        "and its state holds no resource of this package",
    );
    expect(pulumiCalls()).toEqual([
      "stack export --non-interactive",
      "config get docs:organizationId --non-interactive",
    ]);
  });

  it("counts a destroyed stack (a deployment without resources) as managing nothing, listing every object", async () => {
    const handMade = await fx.apiCreate(`/orgs/${fx.org()}/collections`, { title: "Left over" });
    fakePulumi([], fx.org());
    // What `pulumi stack export` prints once `pulumi destroy` has removed everything: no `resources` key at all.
    writeFileSync(
      path.join(dir, "state.json"),
      JSON.stringify({ version: 3, deployment: { manifest: {}, metadata: {} } }),
    );
    const run = await runCli(["unmanaged", "--stack", "production"]);
    expect(run.code).toBe(EXIT.found);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`Organization ${fx.org()}: `);
    expect(run.stdout).toContain("not managed by the stack (0 resources):");
    expect(run.stdout).toContain(`${handMade}  "Left over"`);
  });

  it("refuses a file that is no stack export, naming what it lacks", async () => {
    const file = path.join(tempDir(), "state.json");
    writeFileSync(file, JSON.stringify({ version: 3 }));
    const run = await runCli(["unmanaged", "--state", file, "--organization", fx.org()]);
    expect(run.code).not.toBe(EXIT.ok);
    expect(run.code).not.toBe(EXIT.found);
    expect(run.stderr).toContain("the state holds no `deployment.resources`: is it `pulumi stack export` output?");
  });

  it("reads no stack config for a state given as a file, and none at all when the organization is given", async () => {
    const file = stateFile(tempDir(), [resource("Collection", "adopted", fx.org())]);
    const fromFile = await runCli(["unmanaged", "--state", file, "--json"]);
    expect(fromFile.code).toBe(EXIT.ok);
    expect(JSON.parse(fromFile.stdout).organizationId).toBe(fx.org());
    expect(pulumiCalls()).toEqual([]);

    fakePulumi([resource("Collection", "adopted", "elsewhere")], "configured-elsewhere");
    process.env.DOCS_ORGANIZATION_ID = fx.org();
    const fromEnvironment = await runCli(["unmanaged", "--json"]);
    expect(fromEnvironment.code).toBe(EXIT.ok);
    expect(JSON.parse(fromEnvironment.stdout).organizationId).toBe(fx.org());
    expect(pulumiCalls()).toEqual(["stack export --non-interactive"]);
  });
});

describe("organizationsInState", () => {
  it("collects the organizationId of this package's resources, from outputs else inputs, sorted and once each", () => {
    const state = {
      deployment: {
        resources: [
          { type: "pulumi:pulumi:Stack", outputs: { organizationId: "not-a-docs-resource" } },
          { type: "pulumi:providers:pulumi-nodejs", inputs: { organizationId: "nor-this" } },
          resource("Site", "s", "org-b"),
          { type: "pulumi-nodejs:dynamic/docs:Team", id: "t", inputs: { organizationId: "org-a" }, outputs: {} },
          resource("Collection", "c", "org-b"),
          { type: "pulumi-nodejs:dynamic/docs:SiteSection", id: "x", outputs: { siteId: "s" } },
          // A secret output is ciphertext without --show-secrets: no organization id to read.
          { type: "pulumi-nodejs:dynamic/docs:Space", id: "y", outputs: { organizationId: { ciphertext: "…" } } },
        ],
      },
    };
    expect(organizationsInState(state)).toEqual(["org-a", "org-b"]);
    expect(organizationsInState({ deployment: { resources: [] } })).toEqual([]);
  });
});
