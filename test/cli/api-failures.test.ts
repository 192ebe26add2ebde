import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { UNMANAGED_KINDS } from "../../cli/unmanaged";
import { WALKED_KINDS } from "../../cli/walk";
import { restoreEnvAfterEach, runCli, stateFile, useTempDirs } from "../support/cli";
import { useEmulator } from "../support/emulator";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-api-failures-");
restoreEnvAfterEach("DOCS_API_TOKEN", "DOCS_ORGANIZATION_ID");

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
    const imported = await runCli(["import", "--organization", org, "--out", tempDir(), "--quiet"]);
    expect(imported.code).toBe(EXIT.failure);
    expect(imported.stderr).toBe(
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
    const unmanaged = await runCli(["unmanaged", "--organization", org, "--state", stateFile(tempDir())]);
    expect(unmanaged.code).toBe(EXIT.failure);
    expect(unmanaged.stderr).toMatch(/^docs-platform: GET \S+ failed with 401 Unauthorized: .*\. The API at /);
    expect(unmanaged.stderr).toContain(rejectedTokenHint(org));
  });

  it("a token of another type than a user's, refused by an operation for user tokens only: a personal token, or --kinds", async () => {
    fx.emulator.typeToken("an-integration-token", "integration");
    process.env.DOCS_API_TOKEN = "an-integration-token";
    const org = fx.org();
    const imported = await runCli(["import", "--organization", org, "--out", tempDir(), "--quiet"]);
    expect(imported.code).toBe(EXIT.failure);
    expect(imported.stderr).toMatch(
      new RegExp(`^docs-platform: GET /v1/orgs/${org}/agent-instructions failed with 401 Unauthorized: `),
    );
    expect(imported.stderr).toContain("this operation accepts only a user's personal API token");
    // One pass finds every kind refused, names them, and gives --kinds without them: the other kinds then import.
    const refused = imported.stderr.match(
      /or leave (.+) out \(their operations take users' tokens only\): --kinds (\S+)\.\n$/,
    );
    expect(refused, imported.stderr).not.toBeNull();
    const names = refused![1]!.split(/, | and /);
    expect(names).toContain("OrganizationAgentInstructions");
    expect(names).toContain("SamlProvider");
    const rest = refused![2]!.split(",");
    expect(rest).toEqual(WALKED_KINDS.filter((kind) => !names.includes(kind)));
    const again = await runCli([
      "import",
      "--organization",
      org,
      "--out",
      tempDir(),
      "--quiet",
      "--kinds",
      rest.join(","),
    ]);
    expect(again.stderr).not.toMatch(/failed with|users. tokens only/);
    expect(again.code).toBe(EXIT.ok);
    expect(imported.stderr).not.toContain("rejected the token");
  });

  it("unmanaged, with such a token: every kind refused in one pass, and --kinds as the inventory lists them (no Space)", async () => {
    fx.emulator.typeToken("an-integration-token", "integration");
    process.env.DOCS_API_TOKEN = "an-integration-token";
    const unmanaged = await runCli(["unmanaged", "--organization", fx.org(), "--state", stateFile(tempDir())]);
    expect(unmanaged.code).toBe(EXIT.failure);
    const refused = unmanaged.stderr.match(
      /or leave (.+) out \(their operations take users' tokens only\): --kinds (\S+)\.\n$/,
    );
    expect(refused, unmanaged.stderr).not.toBeNull();
    const names = refused![1]!.split(/, | and /);
    expect(names).toEqual(["SamlProvider", "Translation", "TranslationGlossary"]);
    const rest = refused![2]!.split(",");
    expect(rest).toEqual(UNMANAGED_KINDS.filter((kind) => kind !== "Space" && !names.includes(kind)));
    const again = await runCli([
      "unmanaged",
      "--organization",
      fx.org(),
      "--state",
      stateFile(tempDir()),
      "--kinds",
      rest.join(","),
    ]);
    expect(again.stderr).not.toMatch(/failed with|users. tokens only/);
  });

  it("an organization the API does not know (404): check the id, and how to list the organizations", async () => {
    const imported = await runCli(["import", "--organization", "noSuchOrg", "--out", tempDir(), "--quiet"]);
    expect(imported.code).toBe(EXIT.failure);
    expect(imported.stderr).toBe(
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
    const unmanaged = await runCli(["unmanaged", "--state", stateFile(tempDir())]);
    expect(unmanaged.code).toBe(EXIT.failure);
    expect(unmanaged.stderr).toContain(
      `failed with 403 Forbidden: The token has no access to organization ${fx.org()}. The token cannot see ` +
        `organization "${fx.org()}" (from DOCS_ORGANIZATION_ID): check the id`,
    );
    expect(unmanaged.stderr).toContain(`${fx.emulator.url}/orgs\``);
  });

  it("a 404 of an object, in an organization the token sees, is the API's answer alone", async () => {
    const org = fx.org();
    fx.emulator.injectFault({ method: "GET", path: `^/v1/orgs/${org}/teams$`, status: 404 });
    const unmanaged = await runCli(["unmanaged", "--organization", org, "--state", stateFile(tempDir())]);
    expect(unmanaged.code).toBe(EXIT.failure);
    expect(unmanaged.stderr).toMatch(new RegExp(`^docs-platform: GET /v1/orgs/${org}/teams failed with 404 `));
    expect(unmanaged.stderr).not.toContain("cannot see organization");
    // One read of the organization told the two apart.
    expect(fx.emulator.requests().filter((r) => r.path === `/v1/orgs/${org}`)).toHaveLength(1);
  });

  it("no token: the environment variable, not the stack config this tool does not read", async () => {
    delete process.env.DOCS_API_TOKEN;
    const imported = await runCli(["import", "--organization", fx.org(), "--out", tempDir(), "--quiet"]);
    expect(imported.code).toBe(EXIT.failure);
    expect(imported.stderr).toBe(
      "docs-platform: No API token: set the DOCS_API_TOKEN environment variable (docs-platform reads neither the " +
        "stack's docs:apiToken nor any file).\n",
    );
  });
});
