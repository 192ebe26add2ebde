import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/settings";
import { UNKNOWN } from "../../provider/framework/unknown";
import { currentOperation, lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();
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
        organizationId: fixture.org(),
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
    const site = await fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs site" });
    fixture.emulator.clearRequests();
    const sections = lifecycle("SiteSection");
    const good = { organizationId: fixture.org(), siteId: site, title: "Guides" };
    for (let i = 0; i < 5; i++) expect(reasons(await sections.check({}, { ...good, spaceId: space }))).toEqual([]);
    const wrong = reasons(await sections.check({}, { ...good, spaceId: "wrongSpaceId" }));
    expect(wrong).toEqual([
      `spaceId: SiteSection.spaceId: preflight: no space has the id "wrongSpaceId" in organization "${fixture.org()}". ` +
        `List the valid ids with \`curl -H "Authorization: Bearer $DOCS_API_TOKEN" ${fixture.emulator.url}/orgs/${fixture.org()}/spaces\`.`,
    ]);
    // The organization once, sites and spaces once each for six checks (in the inputs' order); the miss reloads the
    // spaces once.
    expect(fixture.calls()).toEqual([
      `GET /v1/orgs/${fixture.org()}`,
      `GET /v1/orgs/${fixture.org()}/sites`,
      `GET /v1/orgs/${fixture.org()}/spaces`,
      `GET /v1/orgs/${fixture.org()}/spaces`,
    ]);
  });

  it("lists valid ids with the resource's own connection: its API and its token variable", async () => {
    process.env.PREFLIGHT_OTHER_TOKEN = fixture.emulator.token;
    try {
      const connection = { apiUrl: fixture.emulator.url, tokenEnv: "PREFLIGHT_OTHER_TOKEN" };
      const site = await fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs site" });
      const result = await lifecycle("SiteSection").check(
        {},
        { organizationId: fixture.org(), siteId: site, title: "Guides", spaceId: "wrongSpaceId", connection },
      );
      expect(reasons(result)).toEqual([
        `spaceId: SiteSection.spaceId: preflight: no space has the id "wrongSpaceId" in organization "${fixture.org()}". ` +
          `List the valid ids with \`curl -H "Authorization: Bearer $PREFLIGHT_OTHER_TOKEN" ${fixture.emulator.url}/orgs/${fixture.org()}/spaces\`.`,
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
        organizationId: fixture.org(),
        teamId: "noSuchTeam",
        userId: outsider,
        role: "member",
      },
    );
    const found = reasons(result);
    expect(found).toHaveLength(2);
    // In the order the schema declares the inputs.
    expect(found[0]).toMatch(/^teamId: TeamMember\.teamId: preflight: no team has the id "noSuchTeam"/);
    expect(found[1]).toMatch(/^userId: TeamMember\.userId: preflight: no member of the organization has the id/);
  });

  it("fails without a token, and on an organization the token cannot see", async () => {
    const saved = process.env[ENV_KEYS.apiToken];
    delete process.env[ENV_KEYS.apiToken];
    try {
      const missing = reasons(
        await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" }),
      );
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
    const inputs = { organizationId: fixture.org(), title: "Handbook" };
    const missing = reasons(await lifecycle("Collection").check({}, { ...inputs, importId: "noSuchCollection" }));
    expect(missing).toEqual([
      'importId: Collection.importId: preflight: "noSuchCollection" names no existing Collection that these inputs ' +
        "can reach (format: the collection id, as in `https://app.gitbook.com/o/<org>/c/<collectionId>`). Fix importId, or remove it to create a new Collection.",
    ]);
    const [space] = fixture.emulator.spaceIds;
    const wrongKind = reasons(await lifecycle("Collection").check({}, { ...inputs, importId: space }));
    expect(wrongKind[0]).toMatch(/^importId: .*names no existing Collection/);

    const legacy = await fixture.apiCreate(`/orgs/${fixture.org()}/collections`, { title: "Legacy handbook" });
    // Told at the end of the operation (Adoptions.notices), not by check.
    const takesOver =
      "1 of the creates counted below takes over the existing object its importId names instead of making a new one.";
    startOperation();
    expect(reasons(await lifecycle("Collection").check({}, { ...inputs, importId: legacy }))).toEqual([]);
    expect(
      currentOperation()
        .adoptions.notices()
        .map((notice) => notice.message),
    ).toEqual([
      `Collection importId "${legacy}": adopts the existing object "Legacy handbook" instead of creating one; ` +
        "adoption will change title.",
      `1 to adopt, 1 to change (listed above): ${takesOver}`,
    ]);
    startOperation();
    await lifecycle("Collection").check({}, { ...inputs, title: "Legacy handbook", importId: legacy });
    expect(
      currentOperation()
        .adoptions.notices()
        .map((notice) => notice.message),
    ).toEqual([`1 to adopt, 0 to change: ${takesOver}`]);
    // Once in the state, importId has no effect: no read, no notice.
    fixture.emulator.clearRequests();
    startOperation();
    await lifecycle("Collection").check({ title: "Handbook" }, { ...inputs, importId: legacy });
    expect(currentOperation().adoptions.notices()).toEqual([]);
    expect(stderr).toEqual([]);
    expect(fixture.calls().filter((call) => call.includes(legacy))).toEqual([]);
  });

  it("announces an adoption without preflight, offline", async () => {
    delete process.env[ENV_KEYS.preflight];
    startOperation();
    await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs", importId: "abcdef" });
    expect(currentOperation().adoptions.notices()).toEqual([
      {
        severity: "info",
        message:
          "1 to adopt: 1 of the creates counted below takes over the existing object its importId names instead of " +
          "making a new one; turn on docs:preflight to see what adoption changes.",
      },
    ]);
    expect(stderr).toEqual([]);
    expect(fixture.calls()).toEqual([]);
  });

  it("a typo in the setting is reported", async () => {
    process.env[ENV_KEYS.preflight] = "ture";
    await expect(lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" })).rejects.toThrow(
      'DOCS_PREFLIGHT must be true or false, not "ture"',
    );
  });
});

/** Each reference an input can make, and each way the API can fail preflight, one exchange at a time. */
describe("preflight's references and failures", () => {
  const curl = (path: string, token = "$DOCS_API_TOKEN") =>
    `\`curl -H "Authorization: Bearer ${token}" ${fixture.emulator.url}${path}\``;
  const missing = (kind: string, field: string, noun: string, id: string, path: string) =>
    `${field}: ${kind}.${field}: preflight: no ${noun} has the id "${id}" in organization "${fixture.org()}". ` +
    `List the valid ids with ${curl(path)}.`;

  it("names the listing of every kind of reference", async () => {
    const site = await fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs site" });
    expect(
      reasons(
        await lifecycle("SiteSectionGroup").check(
          {},
          // An id not known yet (a section the same update creates) is left to `up`; the others are checked.
          { organizationId: fixture.org(), siteId: site, title: "Product", sectionIds: [UNKNOWN, "noSuchSection"] },
        ),
      ),
    ).toEqual([
      missing(
        "SiteSectionGroup",
        "sectionIds",
        "section of the site",
        "noSuchSection",
        `/orgs/${fixture.org()}/sites/${site}/sections`,
      ),
    ]);
    expect(
      reasons(
        await lifecycle("Collection").check(
          {},
          { organizationId: fixture.org(), title: "Child", parentId: "noSuchParent" },
        ),
      ),
    ).toEqual([missing("Collection", "parentId", "collection", "noSuchParent", `/orgs/${fixture.org()}/collections`)]);
    const saml = {
      organizationId: fixture.org(),
      label: "SSO",
      entityId: "http://www.okta.example/exk1",
      ssoUrl: "https://acme.okta.example/app/docs/exk1/sso/saml",
      certificate: "MIIDpDCCAoygAwIBAgIGAXoM2Q8HMA0GCSqGSIb3DQEBCwUAMIGSMQswCQYDVQQGEwJVUzETMBEGA1UECAwK",
      defaultTeamId: "noSuchTeam",
      defaultRole: "read",
    };
    expect(reasons(await lifecycle("SamlProvider").check({}, saml))).toEqual([
      missing("SamlProvider", "defaultTeamId", "team", "noSuchTeam", `/orgs/${fixture.org()}/teams`),
    ]);
    const settings = reasons(
      await lifecycle("OrganizationSettings").check({}, { organizationId: fixture.org(), defaultSiteId: "noSuchSite" }),
    );
    expect(settings).toEqual([
      missing("OrganizationSettings", "defaultSiteId", "site", "noSuchSite", `/orgs/${fixture.org()}/sites`),
    ]);
  });

  it("skips values not known yet, and a section's missing site is left to the siteId failure", async () => {
    const unknownOrg = await lifecycle("Collection").check(
      {},
      { organizationId: UNKNOWN, title: "Docs", parentId: "noSuchParent" },
    );
    expect(reasons(unknownOrg)).toEqual([]);
    const unknownParent = await lifecycle("Collection").check(
      {},
      { organizationId: fixture.org(), title: "Docs", parentId: UNKNOWN },
    );
    expect(reasons(unknownParent)).toEqual([]);
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}`]);
    const group = await lifecycle("SiteSectionGroup").check(
      {},
      { organizationId: fixture.org(), siteId: "noSuchSite", title: "Product", sectionIds: ["a"] },
    );
    expect(reasons(group)).toEqual([
      missing("SiteSectionGroup", "siteId", "site", "noSuchSite", `/orgs/${fixture.org()}/sites`),
    ]);
  });

  it("adopting a site and what is under it: no request carries a value not known yet", async () => {
    const site = await fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs", visibility: "share-link" });
    const link = await fixture.apiCreate(`/orgs/${fixture.org()}/sites/${site}/share-links`, { name: "Reviewers" });
    const [space] = fixture.emulator.spaceIds;
    const section = await fixture.apiCreate(`/orgs/${fixture.org()}/sites/${site}/sections`, {
      spaceId: space,
      title: "Guides",
    });
    fixture.emulator.clearRequests();
    startOperation();
    // The site is adopted by the same preview, so its id reaches the checks of its children as the placeholder.
    const under = { organizationId: fixture.org(), siteId: UNKNOWN };
    const checks = [
      await lifecycle("Site").check({}, { organizationId: fixture.org(), title: "Docs", importId: site }),
      await lifecycle("SiteShareLink").check({}, { ...under, name: "Reviewers", importId: link }),
      await lifecycle("SiteSection").check({}, { ...under, spaceId: space, title: "Guides", importId: section }),
      await lifecycle("SiteSectionGroup").check({}, { ...under, title: "Product", sectionIds: [section] }),
    ];
    expect(checks.flatMap(reasons)).toEqual([]);
    expect(fixture.calls().filter((call) => call.includes(UNKNOWN))).toEqual([]);
    expect(
      currentOperation()
        .adoptions.notices()
        .map((notice) => notice.message),
    ).toEqual([
      "3 to adopt, 0 to change, 2 read only at `up` (found through a parent the same update adopts or creates, which " +
        "has no id yet): 3 of the creates counted below take over the existing objects their importId names instead " +
        "of making new ones.",
    ]);
  });

  it("the client refuses a request carrying the placeholder before sending it", async () => {
    const { apiClient } = await import("../../provider/runtime");
    await expect(apiClient().get(`/orgs/${fixture.org()}/sites/${UNKNOWN}/share-links`)).rejects.toThrow(
      `GET /v1/orgs/${fixture.org()}/sites/${UNKNOWN}/share-links not sent: it carries a value that is not known until the update runs`,
    );
    await expect(apiClient().post(`/orgs/${fixture.org()}/collections`, { parentId: UNKNOWN })).rejects.toThrow(
      "not sent",
    );
    await expect(apiClient().get(`/orgs/${fixture.org()}/spaces`, { collection: UNKNOWN })).rejects.toThrow("not sent");
    expect(fixture.calls()).toEqual([]);
  });

  it("reports a listing that fails on the field that needed it, and lists again at the next check", async () => {
    fixture.emulator.injectFault({ method: "GET", path: "/teams$", status: 500, count: 10 });
    const failed = reasons(
      await lifecycle("TeamMember").check(
        {},
        { organizationId: fixture.org(), teamId: "t", userId: "u", role: "member" },
      ),
    );
    expect(failed.find((line) => line.startsWith("teamId:"))).toMatch(
      /^teamId: TeamMember\.teamId: preflight: GET \/v1\/orgs\/.+\/teams failed with 500 /,
    );
    fixture.emulator.clearFaults();
    fixture.emulator.clearRequests();
    await lifecycle("Team").check({}, { organizationId: fixture.org(), title: "Writers", defaultTeamId: undefined });
    const again = reasons(
      await lifecycle("TeamMember").check(
        {},
        { organizationId: fixture.org(), teamId: "t2", userId: "u", role: "member" },
      ),
    );
    expect(again.find((line) => line.startsWith("teamId:"))).toBe(
      missing("TeamMember", "teamId", "team", "t2", `/orgs/${fixture.org()}/teams`),
    );
    expect(fixture.calls().filter((call) => call.endsWith("/teams"))).toEqual([`GET /v1/orgs/${fixture.org()}/teams`]);
  });

  it("tells a rejected token, a hidden organization and a failing one apart", async () => {
    fixture.emulator.injectFault({ method: "GET", path: `/orgs/${fixture.org()}$`, status: 401, count: 1 });
    const rejected = reasons(await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" }));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatch(/^: Collection: preflight: the API rejected the token \(.+401.*\)\. /);

    // The client remembers a rejected token for the rest of the process: another token starts afresh.
    startOperation();
    fixture.emulator.injectFault({ method: "GET", path: `/orgs/${fixture.org()}$`, status: 403, count: 1 });
    expect(reasons(await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" }))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^organizationId: Collection\\.organizationId: preflight: the token cannot see organization "${fixture.org()}" \\(.+\\)\\. ` +
            `List the organizations it sees with \`curl -H "Authorization: Bearer \\$DOCS_API_TOKEN" .+/orgs\`\\.$`,
        ),
      ),
    ]);

    startOperation();
    fixture.emulator.injectFault({ method: "GET", path: `/orgs/${fixture.org()}$`, status: 500, count: 10 });
    expect(reasons(await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" }))).toEqual([
      expect.stringMatching(
        /^organizationId: Collection\.organizationId: preflight: GET \/v1\/orgs\/[^/ ]+ failed with 500 /,
      ),
    ]);
    fixture.emulator.clearFaults();
    // The organization is asked once per process, and a failure is not remembered as a success.
    startOperation();
    fixture.emulator.clearRequests();
    await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" });
    await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs" });
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}`]);
  });

  it("names a secret connection token without showing it, and reports a connection it cannot use", async () => {
    const site = await fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs site" });
    const withToken = { apiUrl: fixture.emulator.url, token: fixture.emulator.token };
    const result = reasons(
      await lifecycle("SiteSection").check(
        {},
        {
          organizationId: fixture.org(),
          siteId: site,
          title: "Guides",
          spaceId: "wrongSpaceId",
          connection: withToken,
        },
      ),
    );
    expect(result).toEqual([
      `spaceId: SiteSection.spaceId: preflight: no space has the id "wrongSpaceId" in organization "${fixture.org()}". ` +
        `List the valid ids with ${curl(`/orgs/${fixture.org()}/spaces`, "<this connection's token>")}.`,
    ]);
    expect(result.join("")).not.toContain(fixture.emulator.token);

    const unusable = { apiUrl: fixture.emulator.url, tokenEnv: "PREFLIGHT_UNSET_TOKEN" };
    const failed = reasons(
      await lifecycle("Collection").check({}, { organizationId: fixture.org(), title: "Docs", connection: unusable }),
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/PREFLIGHT_UNSET_TOKEN/);
  });

  it("reports an adoption read that fails on importId", async () => {
    fixture.emulator.injectFault({ method: "GET", path: "/collections/", status: 500, count: 10 });
    const failed = reasons(
      await lifecycle("Collection").check(
        {},
        { organizationId: fixture.org(), title: "Docs", importId: "someCollection" },
      ),
    );
    expect(failed).toEqual([
      expect.stringMatching(
        /^importId: Collection\.importId: preflight: Collection "someCollection" read: GET .+ failed with 500 /,
      ),
    ]);
  });
});
