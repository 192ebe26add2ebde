import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, type Io, main } from "../../cli/main";
import { useEmulator } from "../support/emulator";

const fx = useEmulator();

function capture(): Io & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
    stdout: () => out,
    stderr: () => err,
  };
}

let dir: string;
const saved: Record<string, string | undefined> = {};
const stateFile = () => {
  const file = path.join(dir, "state.json");
  writeFileSync(file, JSON.stringify({ deployment: { resources: [] } }));
  return file;
};
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "docs-platform-api-failures-"));
  for (const name of ["DOCS_API_TOKEN", "DOCS_ORGANIZATION_ID"]) saved[name] = process.env[name];
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * import and unmanaged against an API that refuses them: the message keeps the API's answer and adds what the user
 * can do about it, since neither the token nor the organization is something the tool can fix.
 */
describe("import and unmanaged say how to fix what the API refuses", () => {
  const rejectedTokenHint = (org: string) =>
    `The API at ${fx.emulator.url} (from DOCS_API_URL) rejected the token in DOCS_API_TOKEN: check that it is a ` +
    `current API token of a member of organization "${org}", and that DOCS_API_URL names the API that issued it.\n`;

  it("import, on a rejected token (401): check DOCS_API_TOKEN, whose user must be a member, and DOCS_API_URL", async () => {
    process.env.DOCS_API_TOKEN = "a-revoked-token";
    const org = fx.org();
    const imported = capture();
    expect(await main(["import", "--organization", org, "--out", dir, "--quiet"], imported)).toBe(EXIT.failure);
    expect(imported.stderr()).toBe(
      `docs-platform: GET /v1/orgs/${org} failed with 401 Unauthorized: Unauthorized: invalid bearer ` +
        `token. ${rejectedTokenHint(org)}`,
    );
    // The message is about the token: the walk's first request (the organization's settings) failed, and no other
    // read was made to tell anything apart.
    expect(fx.emulator.requests().map((r) => r.path)).toEqual([`/v1/orgs/${org}`]);
  });

  it("unmanaged, on a rejected token (401): the same fix", async () => {
    process.env.DOCS_API_TOKEN = "a-revoked-token";
    const org = fx.org();
    const unmanaged = capture();
    expect(await main(["unmanaged", "--organization", org, "--state", stateFile()], unmanaged)).toBe(EXIT.failure);
    expect(unmanaged.stderr()).toMatch(/^docs-platform: GET \S+ failed with 401 Unauthorized: .*\. The API at /);
    expect(unmanaged.stderr()).toContain(rejectedTokenHint(org));
  });

  it("an organization the API does not know (404): check the id, and how to list the organizations", async () => {
    const imported = capture();
    expect(await main(["import", "--organization", "noSuchOrg", "--out", dir, "--quiet"], imported)).toBe(EXIT.failure);
    expect(imported.stderr()).toBe(
      `docs-platform: GET /v1/orgs/noSuchOrg failed with 404 Not Found: Organization "noSuchOrg" not ` +
        `found. The token cannot see organization "noSuchOrg" (from --organization): check the id, and that the ` +
        "token belongs to a member of that organization. List the organizations the token sees with " +
        `\`curl -H "Authorization: Bearer $DOCS_API_TOKEN" ${fx.emulator.url}/orgs\`.\n`,
    );
  });

  it("an organization the token has no access to (403), wherever the organization came from", async () => {
    fx.emulator.scopeToken("token-of-the-other-organization", fx.emulator.secondOrganizationId);
    process.env.DOCS_API_TOKEN = "token-of-the-other-organization";
    process.env.DOCS_ORGANIZATION_ID = fx.org();
    const unmanaged = capture();
    expect(await main(["unmanaged", "--state", stateFile()], unmanaged)).toBe(EXIT.failure);
    expect(unmanaged.stderr()).toContain(
      `failed with 403 Forbidden: The token has no access to organization ${fx.org()}. The token cannot see ` +
        `organization "${fx.org()}" (from DOCS_ORGANIZATION_ID): check the id`,
    );
    expect(unmanaged.stderr()).toContain(`${fx.emulator.url}/orgs\``);
  });

  it("a 404 of an object, in an organization the token sees, is the API's answer alone", async () => {
    const org = fx.org();
    fx.emulator.injectFault({ method: "GET", path: `^/v1/orgs/${org}/teams$`, status: 404 });
    const unmanaged = capture();
    expect(await main(["unmanaged", "--organization", org, "--state", stateFile()], unmanaged)).toBe(EXIT.failure);
    expect(unmanaged.stderr()).toMatch(new RegExp(`^docs-platform: GET /v1/orgs/${org}/teams failed with 404 `));
    expect(unmanaged.stderr()).not.toContain("cannot see organization");
    // One read of the organization told the two apart.
    expect(fx.emulator.requests().filter((r) => r.path === `/v1/orgs/${org}`)).toHaveLength(1);
  });

  it("no token: the environment variable, not the stack config this tool does not read", async () => {
    delete process.env.DOCS_API_TOKEN;
    const imported = capture();
    expect(await main(["import", "--organization", fx.org(), "--out", dir, "--quiet"], imported)).toBe(EXIT.failure);
    expect(imported.stderr()).toBe(
      "docs-platform: No API token: set the DOCS_API_TOKEN environment variable (docs-platform reads neither the " +
        "stack's docs:apiToken nor any file).\n",
    );
  });
});
