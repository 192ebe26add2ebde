import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { projectDirOfStack, projectNameIn, projectOfStack, stackNames } from "../../cli/stacks";
import { restoreEnvAfterEach, runCli, stackExport, stateResource, useTempDirs } from "../support/cli";
import { useEmulator } from "../support/emulator";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-split-stacks-");
restoreEnvAfterEach("PATH", "DOCS_ORGANIZATION_ID");

/**
 * `drift` and `recover` over a split import's stacks (`--stacks`) without the real CLI (test/e2e/split.test.ts runs
 * them): the folder `import --split` writes, a project per stack, and a `pulumi` on the PATH that answers each
 * stack's `stack export`, `stack history`, `preview --refresh`, `stack import` and `refresh` from the files of the
 * stack its `--stack` names, and logs every call.
 */
let dir: string;
let out: string;
const saved = process.cwd();
const ORG_STACK = "organization/docs-organization/prod";
const SITE_STACK = "organization/docs-handbook/prod";
const stackDir = (stack: string) => path.join(dir, "stacks", stack.replaceAll("/", "_"));
const projectDir = (stack: string) => path.join(out, projectOfStack(stack)!);
const urnOf = (stack: string, kind: string, name: string) =>
  `urn:pulumi:prod::${projectOfStack(stack)}::pulumi-nodejs:dynamic/docs:${kind}::${name}`;
const calls = () => {
  const log = path.join(dir, "calls.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
};
const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

function stack(name: string, files: { state?: object; resources?: unknown[]; history?: object[]; preview?: object }) {
  mkdirSync(stackDir(name), { recursive: true });
  const state = files.state ? JSON.stringify(files.state) : stackExport(files.resources ?? []);
  writeFileSync(path.join(stackDir(name), "state.json"), state);
  writeFileSync(path.join(stackDir(name), "history.json"), JSON.stringify(files.history ?? []));
  writeFileSync(path.join(stackDir(name), "preview.json"), JSON.stringify(files.preview ?? { steps: [] }));
}
const updated = (startAgo: number) => [
  { version: 1, kind: "update", result: "succeeded", startTime: iso(startAgo), endTime: iso(startAgo - 5) },
];
const resource = (stackName: string, kind: string, id: string, title: string, organization = fx.org()) =>
  stateResource(kind, id, {
    urn: urnOf(stackName, kind, title),
    inputs: { organizationId: organization, title },
    outputs: { organizationId: organization, title },
  });

beforeEach(() => {
  dir = tempDir();
  out = path.join(dir, "out");
  for (const stackName of [ORG_STACK, SITE_STACK]) {
    mkdirSync(projectDir(stackName), { recursive: true });
    writeFileSync(path.join(projectDir(stackName), "Pulumi.yaml"), `name: ${projectOfStack(stackName)}\n`);
  }
  const script = path.join(dir, "pulumi");
  writeFileSync(
    script,
    `#!/bin/sh
echo "$*" >> "${dir}/calls.log"
stack=""; prev=""
for arg in "$@"; do [ "$prev" = "--stack" ] && stack="$arg"; prev="$arg"; done
files="${dir}/stacks/$(echo "$stack" | tr '/' '_')"
answer() { if [ -f "$files/$1" ]; then cat "$files/$1"; else echo "error: no stack named '$stack' found" >&2; exit 255; fi; }
case "$1 $2" in
  "stack export") answer state.json ;;
  "stack history") answer history.json ;;
  "preview --refresh") answer preview.json ;;
  "stack import") cat > "$files/imported.json" ;;
  "refresh --yes") ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(script, 0o755);
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
  delete process.env.DOCS_ORGANIZATION_ID;
  process.chdir(out);
});
afterEach(() => process.chdir(saved));

describe("where each of several stacks' programs is", () => {
  it("splits a list, and finds a stack's project in the folder, in it or beside the current project", () => {
    expect(stackNames(` ${ORG_STACK}, ,${SITE_STACK},`)).toEqual([ORG_STACK, SITE_STACK]);
    expect(projectOfStack("prod")).toBeUndefined();
    expect(projectOfStack("docs-handbook/prod")).toBe("docs-handbook");
    expect(projectNameIn(projectDir(SITE_STACK))).toBe("docs-handbook");
    // From the folder `import --split` wrote, from one of its projects, and from that project's own folder.
    expect(projectDirOfStack(SITE_STACK, out)).toBe(projectDir(SITE_STACK));
    expect(projectDirOfStack(SITE_STACK, projectDir(ORG_STACK))).toBe(projectDir(SITE_STACK));
    expect(projectDirOfStack(SITE_STACK, projectDir(SITE_STACK))).toBe(projectDir(SITE_STACK));
    expect(projectDirOfStack("prod", projectDir(ORG_STACK))).toBe(projectDir(ORG_STACK));
    expect(() => projectDirOfStack("organization/docs-elsewhere/prod", out)).toThrow(
      `stack organization/docs-elsewhere/prod: no directory holds project docs-elsewhere (looked for its Pulumi.yaml in ${out}, ${path.join(out, "docs-elsewhere")}, ${path.join(dir, "docs-elsewhere")})`,
    );
  });
});

describe("docs-platform drift --stacks", () => {
  it("reports each stack's changes, run in its own project, and what no stack manages; the window holds every stack's", async () => {
    const writers = await fx.makeTeam("Writers");
    const site = await fx.makeSite({ title: "Handbook" });
    const contractors = await fx.makeTeam("Contractors");
    const siteUrn = urnOf(SITE_STACK, "Site", "Handbook");
    const older = updated(600);
    stack(ORG_STACK, { resources: [resource(ORG_STACK, "Team", writers, "Writers")], history: older });
    stack(SITE_STACK, {
      resources: [resource(SITE_STACK, "Site", site, "Handbook")],
      history: updated(60),
      preview: {
        steps: [
          {
            op: "update",
            urn: siteUrn,
            oldState: { id: site, type: "pulumi-nodejs:dynamic/docs:Site", inputs: { title: "Edited" } },
            newState: { type: "pulumi-nodejs:dynamic/docs:Site", inputs: { title: "Handbook" } },
          },
        ],
      },
    });
    const run = await runCli(["drift", "--stacks", `${ORG_STACK},${SITE_STACK}`, "--kinds", "Site,Team", "--json"]);
    expect(run.code, run.stderr).toBe(EXIT.found);
    const report = JSON.parse(run.stdout);
    expect(report.stack).toBe(`${ORG_STACK}, ${SITE_STACK}`);
    // The audit window starts at the older of the two stacks' updates, so that it holds both.
    expect(report.window.from).toBe(older[0]!.startTime);
    const findings = report.findings.map((f: { type: string; kind: string; id: string; revert: string }) => [
      f.type,
      f.kind,
      f.id,
      f.revert,
    ]);
    expect(findings).toEqual([
      [
        "changed",
        "Site",
        site,
        `pulumi up --refresh --target '${siteUrn}' --stack ${SITE_STACK} --cwd ${projectDir(SITE_STACK)}`,
      ],
      ["unmanaged", "Team", contractors, expect.stringContaining(`Delete Team ${contractors}`)],
    ]);
    const previews = calls().filter((call) => call.startsWith("preview"));
    expect(previews).toEqual([
      `preview --refresh --json --non-interactive --stack ${ORG_STACK} --cwd ${projectDir(ORG_STACK)}`,
      `preview --refresh --json --non-interactive --stack ${SITE_STACK} --cwd ${projectDir(SITE_STACK)}`,
    ]);
  });

  it("refuses a stack of another organization, naming it, before any preview; and a missing stack fails", async () => {
    const writers = await fx.makeTeam("Writers");
    stack(ORG_STACK, { resources: [resource(ORG_STACK, "Team", writers, "Writers")], history: updated(60) });
    stack(SITE_STACK, {
      resources: [resource(SITE_STACK, "Site", "s1", "Handbook", fx.emulator.secondOrganizationId)],
      history: updated(60),
    });
    const refused = await runCli(["drift", "--stacks", `${ORG_STACK},${SITE_STACK}`, "--organization", fx.org()]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain(
      `--stacks: ${SITE_STACK} (${fx.emulator.secondOrganizationId}) manages objects of another organization than ${fx.org()}: leave it out`,
    );
    expect(calls().filter((call) => !call.startsWith("stack export"))).toEqual([]);

    // One of several stacks missing must not pass its objects off as unmanaged.
    const missing = await runCli(["drift", "--stacks", `${ORG_STACK},organization/docs-organization/gone`]);
    expect(missing.code).toBe(EXIT.failure);
    expect(missing.stderr).toContain("no stack named 'organization/docs-organization/gone' found");
    expect((await runCli(["drift", "--stack", "prod", "--stacks", ORG_STACK])).code).toBe(EXIT.usage);
  });
});

describe("docs-platform recover --stacks", () => {
  /** A stack whose update was killed while adopting a collection by its importId. */
  async function killedAdoption(stackName: string, organization = fx.org()) {
    const collection = (await fx.call("POST", `/orgs/${fx.org()}/collections`, { title: "Guides" })).body.id as string;
    const urn = urnOf(stackName, "Collection", "guides");
    const pending = {
      type: "creating",
      resource: {
        urn,
        type: "pulumi-nodejs:dynamic/docs:Collection",
        inputs: {
          __provider: "exports.handler = …",
          organizationId: organization,
          title: "Guides",
          importId: collection,
        },
        created: new Date().toISOString(),
      },
    };
    const team = resource(stackName, "Team", await fx.makeTeam(`Team of ${stackName}`), "Team", organization);
    stack(stackName, { state: { version: 3, deployment: { resources: [team], pending_operations: [pending] } } });
    return { collection, urn };
  }

  it("recovers each stack in its own project; one without pending creates is left alone", async () => {
    stack(ORG_STACK, { resources: [resource(ORG_STACK, "Team", await fx.makeTeam("Writers"), "Writers")] });
    const { collection, urn } = await killedAdoption(SITE_STACK);
    const dry = await runCli(["recover", "--stacks", `${ORG_STACK},${SITE_STACK}`, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(EXIT.ok);
    expect(dry.stdout).toContain(`Stack ${ORG_STACK}:\n`);
    expect(dry.stdout).toContain(`Stack ${SITE_STACK}:\n`);
    expect(dry.stdout).toContain(
      `Would run: pulumi stack import --stack ${SITE_STACK} --cwd ${projectDir(SITE_STACK)}\n` +
        `Would run: pulumi refresh --yes --skip-preview --stack ${SITE_STACK} --cwd ${projectDir(SITE_STACK)} --non-interactive\n`,
    );
    expect(existsSync(path.join(stackDir(SITE_STACK), "imported.json"))).toBe(false);

    const json = await runCli(["recover", "--stacks", `${ORG_STACK},${SITE_STACK}`, "--json"]);
    expect(json.code, json.stderr).toBe(EXIT.ok);
    const { stacks } = JSON.parse(json.stdout);
    expect(stacks.map((s: { stack: string; commands: unknown[] }) => [s.stack, s.commands.length])).toEqual([
      [ORG_STACK, 0],
      [SITE_STACK, 2],
    ]);
    const imported = JSON.parse(readFileSync(path.join(stackDir(SITE_STACK), "imported.json"), "utf8"));
    expect(imported.deployment.pending_operations).toEqual([]);
    expect(imported.deployment.resources.find((r: { urn: string }) => r.urn === urn)?.id).toBe(collection);
    expect(calls().filter((call) => call.startsWith("refresh"))).toEqual([
      `refresh --yes --skip-preview --stack ${SITE_STACK} --cwd ${projectDir(SITE_STACK)} --non-interactive`,
    ]);
  });

  it("refuses a stack of another organization, naming it, and touches no state", async () => {
    stack(ORG_STACK, { resources: [resource(ORG_STACK, "Team", await fx.makeTeam("Writers"), "Writers")] });
    await killedAdoption(SITE_STACK, fx.emulator.secondOrganizationId);
    const unsure = await runCli(["recover", "--stacks", `${ORG_STACK},${SITE_STACK}`]);
    expect(unsure.code).toBe(EXIT.usage);
    expect(unsure.stderr).toContain(
      `the stacks belong to 2 organizations (${ORG_STACK}: ${fx.org()}; ${SITE_STACK}: ${fx.emulator.secondOrganizationId}): give --organization <id>`,
    );
    const refused = await runCli(["recover", "--stacks", `${ORG_STACK},${SITE_STACK}`, "--organization", fx.org()]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain(
      `--stacks: ${SITE_STACK} (${fx.emulator.secondOrganizationId}) manages objects of another organization than ${fx.org()}: leave it out`,
    );
    expect(calls().filter((call) => !call.startsWith("stack export"))).toEqual([]);
    expect((await runCli(["recover", "--stack", "prod", "--stacks", ORG_STACK])).code).toBe(EXIT.usage);
  });
});
