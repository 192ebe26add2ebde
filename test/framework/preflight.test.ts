import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/connection";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();
const org = () => fixture.emulator.organizationId;
const reasons = (result: { failures?: { property: string; reason: string }[] }) =>
  (result.failures ?? []).map((failure) => `${failure.property}: ${failure.reason}`);
let stderr: string[] = [];

beforeEach(() => {
  process.env[ENV_KEYS.preflight] = "true";
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  delete process.env[ENV_KEYS.preflight];
  setStackConfig({});
  vi.restoreAllMocks();
});

/** Preflight: check verifies what only the API knows, with one listing per organization and kind. */
describe("preflight in check", () => {
  it("is offline when off", async () => {
    delete process.env[ENV_KEYS.preflight];
    const result = await lifecycle("SiteSection").check(
      {},
      {
        organizationId: org(),
        siteId: "noSuchSite",
        spaceId: "noSuchSpace",
        title: "Guides",
      },
    );
    expect(result.failures).toBeUndefined();
    expect(fixture.calls()).toEqual([]);
  });

  it("names the resource, field, id and how to list valid ids; one listing per organization and kind", async () => {
    const [space] = fixture.emulator.spaceIds;
    const site = await fixture.apiCreate(`/orgs/${org()}/sites`, { title: "Docs site" });
    fixture.emulator.clearRequests();
    const sections = lifecycle("SiteSection");
    const good = { organizationId: org(), siteId: site, title: "Guides" };
    for (let i = 0; i < 5; i++) expect(reasons(await sections.check({}, { ...good, spaceId: space }))).toEqual([]);
    const wrong = reasons(await sections.check({}, { ...good, spaceId: "wrongSpaceId" }));
    expect(wrong).toEqual([
      `spaceId: SiteSection.spaceId: preflight: no space has the id "wrongSpaceId" in organization "${org()}". ` +
        `List the valid ids with \`curl -H "Authorization: Bearer $DOCS_API_TOKEN" ${fixture.emulator.url}/orgs/${org()}/spaces\`.`,
    ]);
    // The organization once, spaces and sites once each for six checks; the miss reloads the spaces once.
    expect(fixture.calls()).toEqual([
      `GET /v1/orgs/${org()}`,
      `GET /v1/orgs/${org()}/spaces`,
      `GET /v1/orgs/${org()}/sites`,
      `GET /v1/orgs/${org()}/spaces`,
    ]);
  });

  it("lists valid ids with the resource's own connection: its API and its token variable", async () => {
    process.env.PREFLIGHT_OTHER_TOKEN = fixture.emulator.token;
    try {
      const connection = { apiUrl: fixture.emulator.url, tokenEnv: "PREFLIGHT_OTHER_TOKEN" };
      const site = await fixture.apiCreate(`/orgs/${org()}/sites`, { title: "Docs site" });
      const result = await lifecycle("SiteSection").check(
        {},
        { organizationId: org(), siteId: site, title: "Guides", spaceId: "wrongSpaceId", connection },
      );
      expect(reasons(result)).toEqual([
        `spaceId: SiteSection.spaceId: preflight: no space has the id "wrongSpaceId" in organization "${org()}". ` +
          `List the valid ids with \`curl -H "Authorization: Bearer $PREFLIGHT_OTHER_TOKEN" ${fixture.emulator.url}/orgs/${org()}/spaces\`.`,
      ]);
    } finally {
      delete process.env.PREFLIGHT_OTHER_TOKEN;
    }
  });

  it("rejects a user outside the organization and an unknown team", async () => {
    const outsider = fixture.emulator.secondOrganizationId;
    const result = await lifecycle("TeamMember").check(
      {},
      {
        organizationId: org(),
        teamId: "noSuchTeam",
        userId: outsider,
        role: "member",
      },
    );
    const found = reasons(result);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^userId: TeamMember\.userId: preflight: no member of the organization has the id/);
    expect(found[1]).toMatch(/^teamId: TeamMember\.teamId: preflight: no team has the id "noSuchTeam"/);
  });

  it("fails without a token, and on an organization the token cannot see", async () => {
    const saved = process.env[ENV_KEYS.apiToken];
    delete process.env[ENV_KEYS.apiToken];
    try {
      const missing = reasons(await lifecycle("Collection").check({}, { organizationId: org(), title: "Docs" }));
      expect(missing[0]).toMatch(/preflight \(docs:preflight \/ DOCS_PREFLIGHT\) needs an API token and none is set/);
    } finally {
      process.env[ENV_KEYS.apiToken] = saved;
    }
    const hidden = reasons(await lifecycle("Collection").check({}, { organizationId: "notMyOrg", title: "Docs" }));
    expect(hidden[0]).toMatch(
      /^organizationId: Collection\.organizationId: preflight: the token cannot see organization "notMyOrg"/,
    );
  });

  it("an importId of nothing or of another kind fails; a real one is announced with what adoption changes", async () => {
    const collections = lifecycle("Collection");
    const inputs = { organizationId: org(), title: "Handbook" };
    const missing = reasons(await collections.check({}, { ...inputs, importId: "noSuchCollection" }));
    expect(missing).toEqual([
      'importId: Collection.importId: preflight: "noSuchCollection" names no existing Collection that these inputs ' +
        "can reach (format: the collection id, as in `https://app.gitbook.com/o/<org>/c/<collectionId>`). Fix importId, or remove it to create a new Collection.",
    ]);
    const [space] = fixture.emulator.spaceIds;
    const wrongKind = reasons(await collections.check({}, { ...inputs, importId: space }));
    expect(wrongKind[0]).toMatch(/^importId: .*names no existing Collection/);

    const legacy = await fixture.apiCreate(`/orgs/${org()}/collections`, { title: "Legacy handbook" });
    expect(reasons(await collections.check({}, { ...inputs, importId: legacy }))).toEqual([]);
    expect(stderr.join("")).toBe(
      `info: Collection importId "${legacy}": adopts the existing object "Legacy handbook" instead of creating one; ` +
        "adoption will change title.\n",
    );
    stderr = [];
    await collections.check({}, { ...inputs, title: "Legacy handbook", importId: legacy });
    expect(stderr.join("")).toContain("adoption no change.");
    // Once in the state, importId has no effect: no read, no notice.
    fixture.emulator.clearRequests();
    stderr = [];
    await collections.check({ title: "Handbook" }, { ...inputs, importId: legacy });
    expect(stderr).toEqual([]);
    expect(fixture.calls().filter((call) => call.includes(legacy))).toEqual([]);
  });

  it("announces an adoption without preflight, offline", async () => {
    delete process.env[ENV_KEYS.preflight];
    await lifecycle("Collection").check({}, { organizationId: org(), title: "Docs", importId: "abcdef" });
    expect(stderr.join("")).toBe(
      'info: Collection importId "abcdef": adopts the existing object instead of creating one (turn on ' +
        "docs:preflight to see what adoption changes).\n",
    );
    expect(fixture.calls()).toEqual([]);
  });

  it("a typo in the setting is reported", async () => {
    process.env[ENV_KEYS.preflight] = "ture";
    await expect(lifecycle("Collection").check({}, { organizationId: org(), title: "Docs" })).rejects.toThrow(
      'DOCS_PREFLIGHT must be true or false, not "ture"',
    );
  });
});
