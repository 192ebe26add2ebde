/**
 * Preflight's adoption preview and its failures of the settings (provider/framework/preflight.ts): what check tells
 * of an importId, what it leaves untold when the inputs already fail, and the failures naming the setting to fix.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/settings";
import { currentOperation, lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();
const failuresOf = (result: { failures?: { property: string; reason: string }[] }) => result.failures ?? [];
const adoptionNotices = () =>
  currentOperation()
    .adoptions.notices()
    .map((notice) => notice.message);
const takesOver = (count: number) =>
  count === 1
    ? "1 of the creates counted below takes over the existing object its importId names instead of making a new one"
    : `${count} of the creates counted below take over the existing objects their importId names instead of making new ones`;

beforeEach(() => {
  process.env[ENV_KEYS.preflight] = "true";
  startOperation();
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterEach(() => {
  delete process.env[ENV_KEYS.preflight];
  setStackConfig({});
  vi.restoreAllMocks();
  startOperation();
});

describe("preflight's adoption preview", () => {
  it("names every field an adoption changes", async () => {
    const legacy = await fixture.apiCreate(`/orgs/${fixture.org()}/collections`, { title: "Legacy" });
    const inputs = { organizationId: fixture.org(), title: "Handbook", description: "How we work", importId: legacy };
    expect(failuresOf(await lifecycle("Collection").check({}, inputs))).toEqual([]);
    expect(adoptionNotices()).toEqual([
      `Collection importId "${legacy}": adopts the existing object "Legacy" instead of creating one; ` +
        "adoption will change title, description.",
      `1 to adopt, 1 to change (listed above): ${takesOver(1)}.`,
    ]);
  });

  it("names an object without a title by its importId alone", async () => {
    const [owner, member] = [fixture.user(0), fixture.user(1)];
    const team = await fixture.makeTeam("Writers", [owner, member]);
    const importId = `${team}/${member}`;
    const inputs = { organizationId: fixture.org(), teamId: team, userId: member, role: "owner", importId };
    expect(failuresOf(await lifecycle("TeamMember").check({}, inputs))).toEqual([]);
    expect(adoptionNotices()).toEqual([
      `TeamMember importId "${importId}": adopts the existing object instead of creating one; adoption will change role.`,
      `1 to adopt, 1 to change (listed above): ${takesOver(1)}.`,
    ]);
  });

  it("reports what the inputs refer to and nothing else: no adoption read, no adoption told", async () => {
    const legacy = await fixture.apiCreate(`/orgs/${fixture.org()}/collections`, { title: "Legacy" });
    fixture.emulator.clearRequests();
    const result = await lifecycle("Collection").check(
      {},
      { organizationId: fixture.org(), title: "Handbook", parentId: "noSuchParent", importId: legacy },
    );
    expect(failuresOf(result).map((failure) => failure.property)).toEqual(["parentId"]);
    expect(fixture.calls().filter((call) => call.includes(legacy))).toEqual([]);
    expect(adoptionNotices()).toEqual([]);
  });

  it("tells no adoption of a check without importId, preflight on or off", async () => {
    await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Handbook" });
    expect(adoptionNotices()).toEqual([]);
    delete process.env[ENV_KEYS.preflight];
    await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Handbook" });
    await lifecycle("Collection").check({ title: "Handbook" }, { organizationId: fixture.org(), title: "Handbook" });
    expect(adoptionNotices()).toEqual([]);
  });
});

describe("preflight's failures of the settings", () => {
  it("without a token: names both settings, the CI case and the way out, on no property", async () => {
    const saved = process.env[ENV_KEYS.apiToken];
    delete process.env[ENV_KEYS.apiToken];
    try {
      expect(
        failuresOf(await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" })),
      ).toEqual([
        {
          property: "",
          reason:
            "Collection: preflight (docs:preflight / DOCS_PREFLIGHT) needs an API token and none is set: " +
            "`pulumi config set --secret docs:apiToken <token>` or the DOCS_API_TOKEN environment variable (in CI, " +
            "give the preview job the token), or turn preflight off.",
        },
      ]);
    } finally {
      process.env[ENV_KEYS.apiToken] = saved;
    }
  });

  it("a stack-wide setting the client cannot take fails on no property, naming the setting", async () => {
    process.env[ENV_KEYS.timeoutMs] = "soon";
    try {
      const failures = failuresOf(
        await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" }),
      );
      expect(failures).toEqual([{ property: "", reason: expect.stringContaining(ENV_KEYS.timeoutMs) }]);
      // The resource, then the message: no `Collection.` with an empty property.
      expect(failures[0]?.reason).toMatch(/^Collection: preflight: DOCS_API_TIMEOUT_MS must be/);
    } finally {
      delete process.env[ENV_KEYS.timeoutMs];
    }
  });

  it("a resource connection it cannot use fails on no property", async () => {
    const unusable = { apiUrl: fixture.emulator.url, tokenEnv: "PREFLIGHT_UNSET_TOKEN" };
    const failures = failuresOf(
      await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs", connection: unusable }),
    );
    expect(failures).toEqual([{ property: "", reason: expect.stringContaining("PREFLIGHT_UNSET_TOKEN") }]);
    expect(failures[0]?.reason).toMatch(/^Collection: preflight: /);
  });

  it("lists valid ids at a connection's API without its trailing slashes", async () => {
    process.env.PREFLIGHT_SLASH_TOKEN = fixture.emulator.token;
    try {
      const connection = { apiUrl: `${fixture.emulator.url}//`, tokenEnv: "PREFLIGHT_SLASH_TOKEN" };
      const failures = failuresOf(
        await lifecycle("Collection").check(
          {},
          { organizationId: fixture.org(), title: "Docs", parentId: "noSuchParent", connection },
        ),
      );
      expect(failures.map((failure) => failure.reason)).toEqual([
        `Collection.parentId: preflight: no collection has the id "noSuchParent" in organization "${fixture.org()}". ` +
          `List the valid ids with \`curl -H "Authorization: Bearer $PREFLIGHT_SLASH_TOKEN" ` +
          `${fixture.emulator.url}/orgs/${fixture.org()}/collections\`.`,
      ]);
    } finally {
      delete process.env.PREFLIGHT_SLASH_TOKEN;
    }
  });
});
