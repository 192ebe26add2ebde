import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { parseImportId } from "../../provider/framework/importIds";
import { definitions } from "../../provider/registry";
import { startOperation } from "../../provider/runtime";
import { restoreEnvAfterEach, runCli, stateFile, stateResource, useTempDirs } from "../support/cli";
import { useEmulator } from "../support/emulator";
import { seedOrganization } from "../support/seed-organization";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-plugin-json-");
restoreEnvAfterEach("DOCS_API_TOKEN", "DOCS_ORGANIZATION_ID", "PATH");
const byKind = new Map(definitions.map((definition) => [definition.kind, definition]));

/** Every declaration of the TypeScript program: its kind, resource name and importId, in program order. */
function declarations(program: string): { kind: string; name: string; importId: string }[] {
  const found: { kind: string; name: string; importId: string }[] = [];
  const pattern = /new docsPlatform\.(\w+)\(\s*"([^"]+)",[\s\S]*?\n\s+importId: "([^"]+)",/g;
  for (const [, kind, name, importId] of program.matchAll(pattern))
    found.push({ kind: kind!, name: name!, importId: importId! });
  return found;
}

describe("docs-platform import --plugin-json", () => {
  it("writes a `pulumi import --file` file: each object of the program, same name, import id with the organization", async () => {
    await seedOrganization(fx.emulator);
    const out = tempDir();
    const file = path.join(tempDir(), "import.json");
    startOperation();
    fx.emulator.clearRequests();
    const io = await runCli(["import", "--organization", fx.org(), "--out", out, "--plugin-json", file]);
    expect(io.code).toBe(EXIT.ok);
    expect(io.stderr).toContain(`docs-platform: wrote ${file} (90 resources): pulumi import --file ${file}\n`);
    const requests = fx.emulator.requests().length;

    const written = JSON.parse(readFileSync(file, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const program = declarations(readFileSync(path.join(out, "index.ts"), "utf8"));
    expect(program).toHaveLength(90);
    expect(Object.keys(written)).toEqual(["resources"]);
    // The same objects in the same order, under the same names; every id names its organization.
    expect(written.resources.map(({ type, name }) => ({ type, name }))).toEqual(
      program.map(({ kind, name }) => ({ type: `docs:index:${kind}`, name })),
    );
    written.resources.forEach((resource, i) => {
      const { kind, importId } = program[i]!;
      expect(Object.keys(resource)).toEqual(["type", "name", "id"]);
      const parsed = parseImportId(byKind.get(kind)!, definitions, resource.id);
      expect(parsed.parents.organizationId, resource.id).toBe(fx.org());
      expect(parsed.id, `${kind} ${resource.name}`).toBe(importId);
    });
    const ids = (kind: string) => written.resources.filter((r) => r.type === `docs:index:${kind}`).map((r) => r.id);
    const site = ids("Site")[0]!.split("/")[1];
    expect(ids("SiteStructure")).toContain(`${fx.org()}/${site}`);
    expect(ids("OrganizationSettings")).toEqual([fx.org()]);
    expect(ids("SiteShareLink").every((id) => id.split("/").length === 3)).toBe(true);
    expect(ids("SpacePermission").every((id) => id.split("/").length === 3)).toBe(true);

    // Made of what the walk knew: the same requests as without the option.
    startOperation();
    fx.emulator.clearRequests();
    expect((await runCli(["import", "--organization", fx.org(), "--out", tempDir(), "--quiet"])).code).toBe(EXIT.ok);
    expect(fx.emulator.requests()).toHaveLength(requests);
  });

  it("with --stack: leaves out what the stack manages, even with --site, and ids without the stack's organization", async () => {
    await seedOrganization(fx.emulator);
    const walked = async (extra: string[]) => {
      const file = path.join(tempDir(), "import.json");
      startOperation();
      const io = await runCli([
        "import",
        "--organization",
        fx.org(),
        "--out",
        tempDir(),
        "--plugin-json",
        file,
        ...extra,
      ]);
      expect(io.code, io.stderr).toBe(EXIT.ok);
      return (JSON.parse(readFileSync(file, "utf8")) as { resources: { type: string; name: string; id: string }[] })
        .resources;
    };
    const full = await walked([]);
    const siteIds = full.filter((r) => r.type === "docs:index:Site").map((r) => r.id.split("/")[1]!);
    expect(siteIds.length).toBeGreaterThan(0);
    const [managedSite] = siteIds;

    // A `pulumi` on the PATH that answers `stack export` with a state managing one site, and `config get` with the
    // stack's docs:organizationId.
    const dir = tempDir();
    stateFile(dir, [stateResource("Site", managedSite!, { outputs: { organizationId: fx.org() } })]);
    writeFileSync(path.join(dir, "organization"), `${fx.org()}\n`);
    const script = path.join(dir, "pulumi");
    writeFileSync(
      script,
      `#!/bin/sh\ncase "$1 $2" in\n  "stack export") cat "${dir}/state.json" ;;\n  "config get") cat "${dir}/organization" ;;\n  *) exit 1 ;;\nesac\n`,
    );
    chmodSync(script, 0o755);
    process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;

    const fromStack = await walked(["--stack", "production"]);
    expect(fromStack.map((r) => r.name)).toEqual(
      full.filter((r) => !(r.type === "docs:index:Site" && r.id.endsWith(`/${managedSite}`))).map((r) => r.name),
    );
    for (const resource of fromStack) {
      const kind = resource.type.replace("docs:index:", "");
      const parsed = parseImportId(byKind.get(kind)!, definitions, resource.id, fx.org());
      expect(parsed.parents.organizationId, resource.id).toBe(fx.org());
      // The organization is left out wherever the id still names the object without it.
      if (kind !== "OrganizationSettings" && kind !== "OrganizationMember") {
        expect(resource.id.startsWith(`${fx.org()}/`), resource.id).toBe(false);
      }
    }
    // A site's import id is now its id: what Pulumi matches a literal siteId against to write a reference.
    expect(fromStack.filter((r) => r.type === "docs:index:Site").map((r) => r.id)).toEqual(siteIds.slice(1));

    const oneSite = await walked(["--stack", "production", "--site", managedSite!]);
    expect(oneSite.filter((r) => r.type === "docs:index:Site")).toEqual([]);
  });

  it("is in import --help", async () => {
    const io = await runCli(["import", "--help"]);
    expect(io.stdout.replace(/\s+/g, " ")).toContain(
      "--plugin-json <file> also write <file> for `pulumi import --file <file>`: the same objects under the same names, " +
        "as resources of the provider plugin (types docs:index:<Kind>, import ids with the organization)",
    );
  });
});
