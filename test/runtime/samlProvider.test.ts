import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();

const CERT = "-----BEGIN CERTIFICATE-----\nMIIDpDCCAoygAwIBAgIGAXoTpbV4MA0=\n-----END CERTIFICATE-----";
const SSO_URL = "https://acme.okta.example/app/acme_docs/exk1/sso/saml";

const makeProvider = (label: string) => fixture.apiCreate(`/orgs/${fixture.org()}/saml`, { label });

const baseInputs = () => ({
  organizationId: fixture.org(),
  label: "Okta",
  entityId: "http://www.okta.example/exk1",
  certificate: CERT,
  ssoUrl: SSO_URL,
  defaultRole: "read",
});

describeLifecycle(
  {
    kind: "SamlProvider",
    inputs: baseInputs,
    created: (state) => {
      expect(state).toMatchObject({ ...baseInputs(), defaultTeamId: null, status: "active" });
      for (const key of ["acsUrl", "startUrl", "serviceEntityId"]) expect(state[key]).toMatch(/^https?:\/\/\S+$/);
      expect(state.acsUrl).not.toBe(state.startUrl);
    },
    updates: [
      updateTo("label", "Okta (production)"),
      updateTo("entityId", "urn:acme:idp"),
      {
        name: "certificate",
        inputs: (_f, prev) => ({ ...prev, certificate: `${CERT}\n` }),
        expect: (state) => expect(state.certificate).toBe(`${CERT}\n`),
      },
      updateTo("ssoUrl", "https://idp.acme.example/sso"),
      {
        name: "defaultTeamId",
        inputs: async (_f, prev) => ({ ...prev, defaultTeamId: await fixture.makeTeam("SSO users") }),
        expect: (state) => {
          expect(state.defaultTeamId).toEqual(expect.any(String));
          const patch = fixture.emulator.requests().find((r) => r.method === "PATCH");
          expect(patch?.requestBody).toEqual({ defaultTeam: state.defaultTeamId });
        },
      },
      {
        name: "defaultRole (to guest)",
        inputs: (_f, prev) => ({ ...prev, defaultRole: null }),
        expect: (state) => {
          expect(state.defaultRole).toBeNull();
          const patch = fixture.emulator.requests().find((r) => r.method === "PATCH");
          expect(patch?.requestBody).toEqual({ defaultRole: null });
        },
      },
    ],
    replaces: [
      {
        property: "organizationId",
        inputs: (f, prev) => ({ ...prev, organizationId: f.emulator.secondOrganizationId }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        const answer = await fixture.api("PATCH", `/orgs/${fixture.org()}/saml/${id}`, { label: "Edited by hand" });
        expect(answer.status).toBe(200);
      },
      expect: (state) => expect(state.label).toBe("Edited by hand"),
    },
    adopt: {
      existing: () => makeProvider("Legacy IdP"),
      inputs: () => ({ organizationId: fixture.org(), label: "Adopted IdP", defaultRole: "comment" }),
      expect: (state) => expect(state).toMatchObject({ label: "Adopted IdP", defaultRole: "comment" }),
    },
  },
  fixture,
);

describe("SamlProvider create", () => {
  it("sends only the documented fields, under the API's names", async () => {
    await created("SamlProvider", {
      organizationId: fixture.org(),
      label: "Okta",
      entityId: "urn:idp",
      certificate: CERT,
      ssoUrl: SSO_URL,
      defaultTeamId: await fixture.makeTeam("Everyone"),
      defaultRole: null,
    });
    const post = fixture.emulator.requests().find((r) => r.method === "POST");
    expect(Object.keys(post?.requestBody as object).sort()).toEqual(
      ["certificate", "defaultRole", "defaultTeam", "entityID", "label", "ssoURL"].sort(),
    );
  });

  it("reports a provider without an identity provider configuration as pending", async () => {
    const { state } = await created("SamlProvider", { organizationId: fixture.org(), label: "Later" });
    expect(state.status).toBe("pending");
    expect(fixture.emulator.requests().find((r) => r.method === "POST")?.requestBody).toEqual({ label: "Later" });
  });
});

describe("SamlProvider check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("SamlProvider").check({}, news);
  const base = () => ({ organizationId: fixture.org(), label: "ok" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ label: "" }, "label", /at least 1 character/],
      [{ label: "x".repeat(31) }, "label", /at most 30 characters/],
      [{ entityId: "x".repeat(1025) }, "entityId", /at most 1024 characters/],
      [
        { certificate: "x".repeat(10001) },
        "certificate",
        /at most 10000 characters \(value not shown: too long\)/,
        "hidden",
      ],
      [{ ssoUrl: "not a url" }, "ssoUrl", /valid url/],
      [{ ssoUrl: "ftp://idp.example/sso" }, "ssoUrl", /valid url/],
      [{ ssoUrl: `https://idp.example/${"a".repeat(2029)}` }, "ssoUrl", /at most 2048 characters/],
      [{ defaultTeamId: "" }, "defaultTeamId", /must be an id/],
      [{ defaultRole: "owner" }, "defaultRole", /must be one of/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ entityID: "typo" }, "entityID", /unknown property entityID/],
    ];
    await expectEachLimitRejected("SamlProvider", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits, and the emulator accepts them too", async () => {
    const atLimits = {
      organizationId: fixture.org(),
      label: "x".repeat(30),
      entityId: "e".repeat(1024),
      certificate: "c".repeat(10000),
      ssoUrl: `https://idp.example/${"a".repeat(2028)}`,
      defaultRole: null,
    };
    expect(atLimits.ssoUrl).toHaveLength(2048);
    const result = await check(atLimits);
    expect(result.failures).toBeUndefined();
    expect((await check({ ...base(), label: "x" })).failures).toBeUndefined();
    const { state } = await created("SamlProvider", atLimits);
    expect(state).toMatchObject({ label: atLimits.label, ssoUrl: atLimits.ssoUrl, status: "active" });
  });

  it("lets unknown values through during preview", async () => {
    const result = await check({ organizationId: UNKNOWN, label: "ok", defaultTeamId: UNKNOWN, ssoUrl: UNKNOWN });
    expect(result.failures).toBeUndefined();
  });
});

describe("SamlProvider diff", () => {
  it("leaves out-of-program fields unmanaged, and sees a cleared default team as drift", async () => {
    const { id, state, inputs } = await created("SamlProvider", {
      organizationId: fixture.org(),
      label: "Okta",
      defaultTeamId: await fixture.makeTeam("Default"),
    });
    const provider = lifecycle("SamlProvider");
    expect((await provider.diff(id, state, { organizationId: fixture.org(), label: "Okta" })).changes).toBe(false);
    await fixture.api("DELETE", `/orgs/${fixture.org()}/teams/${state.defaultTeamId}`);
    const read = await provider.read(id, state);
    expect(read.props).toMatchObject({ defaultTeamId: null });
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(true);
  });
});
