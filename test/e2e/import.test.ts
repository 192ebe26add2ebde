import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars } from "../../tools/toolchain.mjs";
import { biomeCheck } from "../cli/biome";
import { callApi, startTestEmulator } from "../support/emulator";
import { type SeededOrganization, seedOrganization } from "../support/seed-organization";
import { changes, makeStack, packedPackage, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const cli = path.join(repoRoot, "dist/cli/main.js");

/** Runs the packed CLI as a user would (`npx docs-platform …`); its exit code, stdout and stderr. */
async function docsPlatform(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, ...toolchainVars(), ...options.env },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * `docs-platform import` of a realistic organization (`SeededOrganization.count` objects, every kind it imports:
 * spaces and grants too), then the generated project through the real Pulumi CLI: adoption writes nothing, nothing is
 * left to change or refresh, `unmanaged` names exactly what was made by hand afterwards, and a destroy deletes every
 * adopted object and revokes every adopted grant, except the spaces (`retainOnDelete`: their content would go with
 * them), unless a deleted collection takes one along; hand-made ones stay.
 */
describe("import an existing organization and adopt it with zero changes", () => {
  let emulator: RunningEmulator;
  let seeded: SeededOrganization;
  let project: string;
  let stack: Stack;
  const api = (method: string, apiPath: string, body?: unknown) => callApi(emulator, method, apiPath, body);
  const org = () => `/orgs/${emulator.organizationId}`;
  const credentials = () => ({ DOCS_API_URL: emulator.url, DOCS_API_TOKEN: emulator.token });
  const writes = () => emulator.requests().filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
  /** The organization's objects, listed: what a destroy must bring back. */
  const organizationContents = async () => {
    const contents: Record<string, string[]> = {};
    for (const list of ["sites", "collections", "teams", "saml", "openapi", "spaces"]) {
      const items = (await api("GET", `${org()}/${list}?limit=1000`)).body.items as { id: string }[];
      contents[list] = items.map((item) => item.id).sort();
    }
    return contents;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "import-e2e-token" });
    seeded = await seedOrganization(emulator);
    project = path.join(repoRoot, ".e2e", `import-${process.pid}`);
    for (const old of existsSync(path.dirname(project)) ? readdirSync(path.dirname(project)) : []) {
      if (old.startsWith("import-")) rmSync(path.join(path.dirname(project), old), { recursive: true, force: true });
    }
    mkdirSync(project, { recursive: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("import walks the organization with one list request per parent and writes the project", async () => {
    emulator.clearRequests();
    const started = Date.now();
    const result = await docsPlatform(
      ["import", "--organization", emulator.organizationId, "--out", project, "--name", "acme-docs"],
      { env: credentials() },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(result.stderr).not.toContain("left out");
    expect(result.code).toBe(0);
    const requests = emulator.requests();
    const program = readFileSync(path.join(project, "index.ts"), "utf8");
    const lines = program.split("\n").length - 1;
    console.log(
      `import: ${seeded.count} seeded objects, ${program.match(/importId: /g)?.length} resources, ` +
        `${requests.length} requests (${requests.filter((r) => /\/(collections|teams|saml|openapi|sites)\/[^/]+$/.test(r.path)).length} per-object GETs), ` +
        `${seconds.toFixed(1)} s including Node start-up, ${lines} lines`,
    );
    expect(requests.every((r) => r.method === "GET")).toBe(true);
    // Team members are declared in their team; each site adds its navigation order (SiteStructure).
    expect(program.match(/importId: /g)).toHaveLength(
      seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length,
    );
    expect(biomeCheck(program)).toEqual({ status: 0, fixed: program });
  });

  it("the generated project installs against the packed package and passes tsc", async () => {
    const env = { ...process.env, ...toolchainVars() };
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    await run("npm", [...install, await packedPackage()], { cwd: project, env });
    await run("npm", ["run", "typecheck"], { cwd: project, env });
    stack = await makeStack(project, emulator);
  });

  it("a preview with preflight passes on the generated program: no write, no request with a value not known yet", async () => {
    emulator.clearRequests();
    stack.workspace.envVars.DOCS_PREFLIGHT = "true";
    try {
      const preview = await stack.preview();
      const resources = seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length;
      expect(changes(preview.changeSummary)).toEqual({ create: resources + 1 });
      // Children of a site the same preview adopts are read at `up`: they reach check with the site id unknown.
      expect(`${preview.stdout}${preview.stderr}`).toMatch(
        new RegExp(`info: ${resources} to adopt, 0 to change, \\d+ read only at \`up\``),
      );
    } finally {
      delete stack.workspace.envVars.DOCS_PREFLIGHT;
    }
    expect(writes()).toEqual([]);
    expect(emulator.requests().filter((r) => r.path.includes("04da6b54-80e4-46f7-96ec-b56ff0331ba9"))).toEqual([]);
  });

  it("pulumi up adopts everything: only creates, and not one write request", async () => {
    emulator.clearRequests();
    const up = await upConsistent(stack);
    const resources = seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length;
    // Every resource plus the stack itself.
    expect(changes(up.summary.resourceChanges)).toEqual({ create: resources + 1 });
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("preview --expect-no-changes and refresh --expect-no-changes pass", async () => {
    emulator.clearRequests();
    const preview = await stack.preview({ expectNoChanges: true });
    expect(changes(preview.changeSummary)).toEqual({});
    const refresh = await stack.refresh({ expectNoChanges: true });
    expect(changes(refresh.summary.resourceChanges)).toEqual({});
    expect(writes()).toEqual([]);
  });

  it("unmanaged names exactly the two objects made by hand afterwards, and exits 3", async () => {
    const env = { ...credentials(), ...(stack.workspace.envVars as Record<string, string>) };
    const args = ["unmanaged", "--organization", emulator.organizationId, "--stack", stack.name];
    const clean = await docsPlatform(args, { cwd: project, env });
    expect(clean.stderr).toBe("");
    expect(clean.code).toBe(0);

    const scratch = (await api("POST", `${org()}/collections`, { title: "Scratch" })).body.id as string;
    const contractors = (await api("PUT", `${org()}/teams`, { title: "Contractors" })).body.id as string;
    const text = await docsPlatform(args, { cwd: project, env });
    console.log(`unmanaged (exit ${text.code}):\n${text.stdout}`);
    expect(text.code).toBe(3);
    expect(text.stdout).toBe(
      `Organization ${emulator.organizationId}: 2 object(s) not managed by the stack (${seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length} resources):\n` +
        `  Collection\n    ${scratch}  "Scratch"\n  Team\n    ${contractors}  "Contractors"\n`,
    );
    const json = await docsPlatform([...args, "--json"], { cwd: project, env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout).unmanaged).toEqual([
      { kind: "Collection", id: scratch, title: "Scratch" },
      { kind: "Team", id: contractors, title: "Contractors" },
    ]);
  });

  it("destroy deletes every adopted object but the spaces, and revokes the grants; the hand-made ones stay", async () => {
    const before = await organizationContents();
    /** Grants on the organization's spaces, as their listings report them. */
    const granted = async (spaces: string[]) => {
      let total = 0;
      for (const space of spaces) {
        for (const grantee of ["teams", "users"]) {
          total += ((await api("GET", `/spaces/${space}/permissions/${grantee}`)).body.items as unknown[]).length;
        }
      }
      return total;
    };
    expect(await granted(before.spaces!)).toBe(seeded.ids.SpacePermission!.length);
    await stack.destroy();
    const after = await organizationContents();
    // Kept, except the one in a collection the destroy deleted: a collection's deletion takes its spaces along.
    // Runbooks: the space the seed makes right after the fixture's.
    const inCollection = seeded.ids.Space![emulator.spaceIds.length];
    expect(after.spaces).toEqual(before.spaces!.filter((id) => id !== inCollection));
    expect(await granted(after.spaces!)).toBe(0);
    delete after.spaces;
    const adopted = new Set(Object.values(seeded.ids).flat());
    const keep = (ids: string[]) => ids.filter((id) => !adopted.has(id));
    expect(after).toEqual({
      sites: keep(before.sites!),
      collections: keep(before.collections!),
      teams: keep(before.teams!),
      saml: keep(before.saml!),
      openapi: keep(before.openapi!),
    });
    expect(Object.values(after).flat()).toHaveLength(2);
  });
});
