import { describe, expect, it, vi } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { type Json, useEmulator } from "../support/emulator";
import {
  checked,
  created,
  describeLifecycle,
  expectEachLimitRejected,
  type LimitCase,
  updateTo,
} from "../support/lifecycle";
import { captureLog } from "../support/log";

const fixture = useEmulator();
const provider = () => lifecycle("OrganizationSettings");

const organization = async (id = fixture.org()): Promise<Json> => (await fixture.api("GET", `/orgs/${id}`)).body;

const logged = captureLog();

describeLifecycle(
  {
    kind: "OrganizationSettings",
    inputs: () => ({
      organizationId: fixture.org(),
      title: "Acme Handbook",
      emailDomains: ["acme.example"],
      sso: true,
    }),
    created: (state) =>
      expect(state).toMatchObject({
        organizationId: fixture.org(),
        title: "Acme Handbook",
        emailDomains: ["acme.example"],
      }),
    updates: [
      updateTo("title", "Acme Documentation"),
      {
        name: "mergeRules (sent as declared; state in the canonical order)",
        inputs: (_f, prev) => ({
          ...prev,
          mergeRules: {
            type: "rules",
            rules: [
              { rule: "require_at_least_one_review" },
              { rule: "allow_bypass", users: [fixture.user(1), fixture.user(0)] },
            ],
          },
        }),
        expect: (state) =>
          expect(state.mergeRules).toEqual({
            type: "rules",
            rules: [
              { rule: "allow_bypass", users: [fixture.user(0), fixture.user(1)].sort() },
              { rule: "require_at_least_one_review" },
            ],
          }),
      },
      {
        name: "emailDomains",
        inputs: (_f, prev) => ({ ...prev, emailDomains: ["b.example", "acme.example"] }),
        expect: (state) => expect([...(state.emailDomains as string[])].sort()).toEqual(["acme.example", "b.example"]),
      },
      updateTo("hostname", "acme-docs"),
      updateTo("defaultRole", "edit"),
      updateTo("defaultRole", null, "defaultRole to guests (null)"),
      {
        name: "defaultSiteId",
        inputs: async (f, prev) => ({
          ...prev,
          defaultSiteId: await f.makeSite(),
        }),
        expect: async (state) => {
          expect(state.defaultSiteId).toEqual(expect.any(String));
          expect((await organization()).defaultContent).toEqual({ type: "site", site: state.defaultSiteId });
        },
      },
      updateTo("logo", "https://cdn.acme.example/logo.png"),
      updateTo("sso", false),
      updateTo("ai", false),
      updateTo("inviteLinks", false),
    ],
    replaces: [
      {
        property: "organizationId",
        inputs: (f, prev) => ({ ...prev, organizationId: f.emulator.secondOrganizationId }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        expect((await fixture.api("PATCH", `/orgs/${id}`, { title: "Renamed by hand", sso: false })).status).toBe(200);
      },
      expect: (state) => expect(state).toMatchObject({ title: "Renamed by hand", sso: false }),
    },
    adopt: {
      existing: async () => fixture.org(),
      inputs: () => ({ organizationId: fixture.org(), defaultRole: "comment" }),
      expect: (state) => expect(state).toMatchObject({ organizationId: fixture.org(), defaultRole: "comment" }),
    },
    deleteKeepsObject: "an organization's settings outlive the resource",
  },
  fixture,
);

describe("OrganizationSettings", () => {
  it("takes over the organization on create, writing nothing when the declared settings already match", async () => {
    const { id, state } = await created("OrganizationSettings", {
      organizationId: fixture.org(),
      title: "Acme Docs",
      emailDomains: ["example.com"],
      defaultRole: "read",
    });
    expect(id).toBe(fixture.org());
    expect(state).toMatchObject({ title: "Acme Docs", hostname: "acme", inviteLinks: true });
    expect(fixture.writes()).toEqual([]);
    expect(logged).toEqual([]);
  });

  it("writes only the declared settings that differ, in one PATCH", async () => {
    await created("OrganizationSettings", {
      organizationId: fixture.org(),
      title: "Acme Docs",
      defaultRole: "admin",
      ai: false,
    });
    expect(fixture.writes().map((r) => [r.method, r.requestBody])).toEqual([
      ["PATCH", { defaultRole: "admin", ai: false }],
    ]);
  });

  it("does not manage an undeclared setting: changed by hand, it is neither drift nor written back", async () => {
    const { id, state, inputs } = await created("OrganizationSettings", {
      organizationId: fixture.org(),
      title: "Acme Docs",
    });
    await fixture.api("PATCH", `/orgs/${fixture.org()}`, { inviteLinks: false, emailDomains: ["other.example"] });
    const read = await provider().read(id, state);
    expect(read.props).toMatchObject({ inviteLinks: false, emailDomains: ["other.example"] });
    expect(read.inputs).toEqual({ organizationId: fixture.org(), title: "Acme Docs" });
    expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(false);
  });

  it("compares emailDomains as a set", async () => {
    await fixture.api("PATCH", `/orgs/${fixture.org()}`, { emailDomains: ["a.example", "b.example"] });
    fixture.emulator.clearRequests();
    const { id, state } = await created("OrganizationSettings", {
      organizationId: fixture.org(),
      emailDomains: ["b.example", "a.example"],
    });
    expect(fixture.writes()).toEqual([]);
    const next = await checked("OrganizationSettings", {
      organizationId: fixture.org(),
      emailDomains: ["a.example", "b.example"],
    });
    expect((await provider().diff(id, state, next)).changes).toBe(false);
  });

  it("clears the default site and the logo with null", async () => {
    const siteId = await fixture.makeSite();
    const { id, state } = await created("OrganizationSettings", {
      organizationId: fixture.org(),
      defaultSiteId: siteId,
      logo: "https://cdn.acme.example/logo.png",
    });
    const next = await checked("OrganizationSettings", {
      organizationId: fixture.org(),
      defaultSiteId: null,
      logo: null,
    });
    const { outs } = await provider().update(id, state, next);
    expect(outs).toMatchObject({ defaultSiteId: null, logo: null });
    expect(fixture.emulator.requests().at(-1)?.requestBody).toEqual({ defaultContent: null, logo: null });
    const after = await organization();
    expect(after.defaultContent).toBeUndefined();
    expect(after.urls.logo).toBeUndefined();
  });

  it("leaves the organization as it is on delete, and says so", async () => {
    const { id, state } = await created("OrganizationSettings", {
      organizationId: fixture.org(),
      title: "Changed",
      sso: true,
    });
    fixture.emulator.clearRequests();
    await provider().delete(id, state);
    expect(fixture.emulator.requests()).toEqual([]);
    expect(await organization()).toMatchObject({ title: "Changed", sso: true });
    expect(logged).toEqual([
      `info: OrganizationSettings "${id}": the organization and its settings are left as they are (deleting this ` +
        "resource only stops managing them).",
    ]);
  });

  it("fails create for an organization that does not exist, naming organizationId", async () => {
    const inputs = await checked("OrganizationSettings", { organizationId: "nope", title: "Acme" });
    await expect(provider().create(inputs)).rejects.toThrow(
      'OrganizationSettings "nope": no such organization, or the token\'s user is not a member of it: check organizationId.',
    );
  });

  it("refuses an importId naming another organization than organizationId", async () => {
    const inputs = await checked("OrganizationSettings", {
      organizationId: fixture.org(),
      title: "Acme",
      importId: fixture.emulator.secondOrganizationId,
    });
    await expect(provider().create(inputs)).rejects.toThrow(/importId names organization .* remove importId/);
    expect(fixture.writes()).toEqual([]);
  });

  it("passes the API's 400 for a hostname another organization uses", async () => {
    const inputs = await checked("OrganizationSettings", { organizationId: fixture.org(), hostname: "globex" });
    await expect(provider().create(inputs)).rejects.toThrow(/hostname: "globex" is already used/);
  });
});

describe("OrganizationSettings mergeRules", () => {
  it("reads an organization without rules as none, undeclared or declared", async () => {
    const { state } = await created("OrganizationSettings", { organizationId: fixture.org() });
    expect(state.mergeRules).toEqual({ type: "none" });
  });

  it("is no change when only the order of rules or of a rule's users differs", async () => {
    const rules = [
      { rule: "custom", expression: "changeRequest.subject != ''", message: "Give it a subject" },
      { rule: "require_specific_reviewers", users: [fixture.user(0), fixture.user(2)] },
    ];
    const inputs = { organizationId: fixture.org(), mergeRules: { type: "rules", rules } };
    const { id, state } = await created("OrganizationSettings", inputs);
    const reordered = {
      ...inputs,
      mergeRules: {
        type: "rules",
        rules: [{ ...rules[1], users: [fixture.user(2), fixture.user(0)] }, rules[0]],
      },
    };
    const diff = await lifecycle("OrganizationSettings").diff(
      id,
      state,
      await checked("OrganizationSettings", reordered),
    );
    expect(diff.changes).toBe(false);
    // A rule removed by hand is drift.
    await fixture.api("PATCH", `/orgs/${fixture.org()}`, { mergeRules: { type: "rules", rules: [rules[0]] } });
    const read = await lifecycle("OrganizationSettings").read(id, state);
    expect((await lifecycle("OrganizationSettings").diff(id, read.props ?? {}, inputs)).changes).toBe(true);
  });

  it("rejects an unknown rule and a rule without its users offline", async () => {
    await expectEachLimitRejected("OrganizationSettings", { organizationId: fixture.org() }, [
      [
        { mergeRules: { type: "rules", rules: [{ rule: "require_two_reviews" }] } },
        "mergeRules.rules.0.rule",
        /must be a merge rule/,
      ],
      [
        { mergeRules: { type: "rules", rules: [{ rule: "allow_bypass" }] } },
        "mergeRules.rules.0.users",
        /must be an array/,
      ],
      [{ mergeRules: { type: "inherit" } }, "mergeRules.type", /./],
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("OrganizationSettings check", () => {
  const base = () => ({ organizationId: fixture.org() });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ title: "A" }, "title", [/at least 2/, /two non-space characters/]],
      [{ title: " a " }, "title", /two non-space characters/],
      [{ title: "x".repeat(256) }, "title", /at most 255/],
      [{ emailDomains: ["ada@example.com"] }, "emailDomains.0", /not an email address/],
      [{ emailDomains: ["a.example", "a.example"] }, "emailDomains", /must not list a domain twice/],
      [{ emailDomains: [""] }, "emailDomains.0", [/at least 1/, /must be a domain/]],
      [{ hostname: "ab" }, "hostname", /at least 3/],
      [{ hostname: "x".repeat(33) }, "hostname", /at most 32/],
      [{ defaultRole: "owner" }, "defaultRole", /must be one of/],
      [{ defaultSiteId: "../x" }, "defaultSiteId", /must be an id/],
      [{ logo: "ftp://cdn.example/logo.png" }, "logo", /URL/i],
      [{ logo: `https://cdn.example/${"x".repeat(2048)}` }, "logo", /at most 2048/],
      [{ sso: "yes" }, "sso", /boolean/],
    ];
    await expectEachLimitRejected("OrganizationSettings", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("fails at preview for a second OrganizationSettings of the same organization", async () => {
    const check = (news: Props) => provider().check({}, news);
    expect((await check({ organizationId: fixture.org(), title: "Acme" })).failures).toBeUndefined();
    expect((await check({ organizationId: fixture.org(), title: "Acme" })).failures).toBeUndefined();
    expect(
      (await check({ organizationId: fixture.emulator.secondOrganizationId, sso: true })).failures,
    ).toBeUndefined();
    expect((await check({ organizationId: fixture.org(), sso: true })).failures).toEqual([
      {
        property: "organizationId",
        reason:
          `OrganizationSettings.organizationId: another OrganizationSettings of this program already declares ` +
          `organizationId "${fixture.org()}"; each would undo the other's changes on every run. Declare them in one resource.`,
      },
    ]);
    expect((await check({ organizationId: UNKNOWN, sso: true })).failures).toBeUndefined();
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

// The emulator's own answers for the organization's PATCH, as the official document describes them.
describe("PATCH /orgs/{organizationId} in the emulator", () => {
  it("answers 400 for a default site of another organization, and for an unknown field", async () => {
    const other = fixture.emulator.secondOrganizationId;
    const siteId = await fixture.apiCreate(`/orgs/${other}/sites`, { title: "Elsewhere" });
    const wrongSite = await fixture.api("PATCH", `/orgs/${fixture.org()}`, {
      defaultContent: { type: "site", site: siteId },
    });
    expect(wrongSite.status).toBe(400);
    expect((await fixture.api("PATCH", `/orgs/${fixture.org()}`, { plan: "pro" })).status).toBe(400);
    expect(
      (await fixture.api("PATCH", `/orgs/${fixture.org()}`, { mergeRules: { type: "rules", rules: [] } })).status,
    ).toBe(200);
    expect((await organization()).mergeRules).toEqual({ type: "rules", rules: [] });
    // Each rule is checked against the official MergeRule; a space's `inherit` is not an organization's.
    for (const mergeRules of [
      { type: "rules", rules: [{ rule: "require_two_reviews" }] },
      { type: "rules", rules: [{ rule: "allow_bypass" }] },
      { type: "inherit" },
    ]) {
      expect((await fixture.api("PATCH", `/orgs/${fixture.org()}`, { mergeRules })).status).toBe(400);
    }
  });

  it("stops reporting a deleted site as the default content", async () => {
    const siteId = await fixture.makeSite();
    await fixture.api("PATCH", `/orgs/${fixture.org()}`, { defaultContent: { type: "site", site: siteId } });
    expect((await organization()).defaultContent).toEqual({ type: "site", site: siteId });
    expect((await fixture.api("DELETE", `/orgs/${fixture.org()}/sites/${siteId}`)).status).toBe(205);
    expect((await organization()).defaultContent).toBeUndefined();
  });
});

vi.setConfig({ testTimeout: 20_000 });
