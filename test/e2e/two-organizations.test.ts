import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { type Json, startTestEmulator } from "../support/emulator";
import { exportAsStored, makeProject, makeStack, upConsistent } from "./harness";

/** Tokens no other text of a run can contain by chance; each reaches one organization only. */
const ACME_TOKEN = "tok-acme-only-5d1e9b7c";
const GLOBEX_ENV_TOKEN = "tok-globex-env-3a8f2c6e";
const GLOBEX_SECRET_TOKEN = "tok-globex-secret-9c4b1d7a";
const TOKENS = [ACME_TOKEN, GLOBEX_ENV_TOKEN, GLOBEX_SECRET_TOKEN];

/**
 * One program, two organizations: the stack-wide settings (DOCS_API_TOKEN, docs:organizationId) for the first, two
 * connections for the second, one reading its token from an environment variable by name, one given the token as a
 * secret. A lookup finds a space of the second organization by title, and a share link on a public site is warned
 * about at preview.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const config = new pulumi.Config();
const globexId = config.require("globexId");
const globex = new docs.Connection({ organizationId: globexId, tokenEnv: "GLOBEX_TOKEN" });
const vault = new docs.Connection({ organizationId: globexId, token: config.requireSecret("globexToken") });

const handbook = new docs.Collection("acme-handbook", { title: "Acme Handbook" });
const archive = new docs.Collection("globex-archive", { title: "Globex Archive", connection: globex });
const sealed = new docs.Collection("globex-vault", { title: "Globex Vault", connection: vault });
const legacy = docs.getSpaceOutput({ title: "Legacy Manual" }, { connection: globex });
const site = new docs.Site("globex-site", { title: "Globex Docs", visibility: "public", connection: globex });
new docs.SiteSection("globex-legacy", { siteId: site.id, spaceId: legacy.id, title: "Legacy", connection: globex });
new docs.SiteShareLink("globex-reviewers", { siteId: site.id, name: "Reviewers", connection: vault });

exports.organizations = {
  handbook: handbook.organizationId,
  archive: archive.organizationId,
  vault: sealed.organizationId,
  site: site.organizationId,
};
exports.legacySpaceId = legacy.id;
`;

const SHARE_LINK_WARNING =
  'warning: SiteShareLink "Reviewers" targets Site "%ID%" ("Globex Docs"), whose visibility is "public", not ' +
  '"share-link"';

/** Every file under a directory whose bytes contain `needle`. */
function filesContaining(root: string, needle: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => path.join(root, file))
    .filter((file) => statSync(file).isFile() && readFileSync(file).includes(needle));
}

describe("two organizations in one program, each with its own token", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);
  const titles = async (org: string, kind: "collections" | "sites") => {
    const answer = await fetch(`${emulator.url}/orgs/${org}/${kind}`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    return ((await answer.json()) as Json).items.map((item: Json) => item.title).sort();
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "tok-emulator-admin" });
    emulator.scopeToken(ACME_TOKEN, emulator.organizationId);
    emulator.scopeToken(GLOBEX_ENV_TOKEN, emulator.secondOrganizationId);
    emulator.scopeToken(GLOBEX_SECRET_TOKEN, emulator.secondOrganizationId);
    dir = await makeProject("two-organizations", { "index.js": program });
    stack = await makeStack(dir, emulator);
    const env = (stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
    env.DOCS_API_TOKEN = ACME_TOKEN;
    env.GLOBEX_TOKEN = GLOBEX_ENV_TOKEN;
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("globexId", { value: emulator.secondOrganizationId });
    await stack.setConfig("globexToken", { value: GLOBEX_SECRET_TOKEN, secret: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("up puts each object in its organization, and a refresh straight after finds no change", async () => {
    await upConsistent(stack, { onOutput });
    const orgA = emulator.organizationId;
    const orgB = emulator.secondOrganizationId;
    expect(await titles(orgA, "collections")).toEqual(["Acme Handbook"]);
    expect(await titles(orgB, "collections")).toEqual(["Globex Archive", "Globex Vault"]);
    expect(await titles(orgA, "sites")).toEqual([]);
    expect(await titles(orgB, "sites")).toEqual(["Globex Docs"]);
    const outputs = await stack.outputs();
    expect(outputs.organizations?.value).toEqual({ handbook: orgA, archive: orgB, vault: orgB, site: orgB });
    expect(outputs.organizations?.secret).toBe(false);
    expect(outputs.legacySpaceId?.value).toBe(emulator.store.fixtures.secondOrganizationSpaceIds[0]);
    // Every request to an organization went with that organization's token (the admin token was never used).
    const sent = emulator.requests().filter((request) => request.path.startsWith("/v1/orgs/"));
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((request) => request.status === 403)).toEqual([]);
  });

  it("preview warns that the share link's site is not share-link", async () => {
    const siteId = (await stack.exportStack()).deployment.resources.find((r: Json) => r.type.endsWith(":Site")).id;
    const chunks: string[] = [];
    await stack.preview({ onOutput: (text) => chunks.push(text) && onOutput(text) });
    expect(chunks.join("")).toContain(SHARE_LINK_WARNING.replace("%ID%", siteId));
  });

  it("no token is in the state, the backend's files or the output; the secret one is ciphertext", async () => {
    const exported = await exportAsStored(stack);
    for (const token of TOKENS) {
      expect(exported).not.toContain(token);
      expect(filesContaining(path.join(dir, ".state"), token)).toEqual([]);
      expect(output.join("")).not.toContain(token);
    }
    const resources: Json[] = JSON.parse(exported).deployment.resources;
    const byName = (name: string) => resources.find((r) => r.urn.endsWith(`::${name}`));
    // The environment variable's name is all the state holds of that token.
    expect(byName("globex-archive").outputs.connection).toEqual({
      organizationId: emulator.secondOrganizationId,
      tokenEnv: "GLOBEX_TOKEN",
    });
    expect(byName("acme-handbook").outputs.connection).toBeUndefined();
    // The secret token is ciphertext where it is stored, in the inputs and in the outputs (refresh and destroy read
    // it from there), while the rest of the connection stays readable.
    for (const name of ["globex-vault", "globex-reviewers"]) {
      for (const stored of [byName(name).outputs.connection, byName(name).inputs.connection]) {
        expect(stored.organizationId).toBe(emulator.secondOrganizationId);
        expect(stored.token).toHaveProperty("ciphertext");
      }
    }
  });

  it("destroy removes everything from both organizations with the stored connections", async () => {
    await stack.destroy({ onOutput });
    expect(await titles(emulator.organizationId, "collections")).toEqual([]);
    expect(await titles(emulator.secondOrganizationId, "collections")).toEqual([]);
    expect(await titles(emulator.secondOrganizationId, "sites")).toEqual([]);
    for (const token of TOKENS) expect(output.join("")).not.toContain(token);
  });
});
