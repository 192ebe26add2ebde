import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const samlPath = () => `/orgs/${h.org()}/saml`;

describe("SAML providers", () => {
  it("creates a pending provider that becomes active once configured", async () => {
    const res = await h.call("POST", samlPath(), { label: "Okta" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: "saml-provider", label: "Okta", status: "pending", defaultRole: null });
    expect(res.headers.get("location")).toBe(`${h.emulator.url}${samlPath()}/${res.body.id}`);
    const { acsURL, startURL, entityID } = res.body.service;
    for (const u of [acsURL, startURL, entityID]) expect(u).toMatch(/^https:\/\//);
    const id = res.body.id;

    const patched = await h.call("PATCH", `${samlPath()}/${id}`, {
      ssoURL: "https://idp.example.com/sso",
      entityID: "urn:idp:example",
      certificate: "MIIC...",
      defaultRole: "read",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      status: "active",
      ssoURL: "https://idp.example.com/sso",
      entityID: "urn:idp:example",
      defaultRole: "read",
      label: "Okta",
    });
    expect((await h.call("GET", `${samlPath()}/${id}`)).body).toEqual(patched.body);
    expect((await h.listAll(samlPath())).map((p) => p.id)).toEqual([id]);
    const sso = await h.call("GET", `/orgs/${h.org()}/sso`);
    expect(sso.body).toEqual({ items: [{ id, label: "Okta", startURL }] });

    expect((await h.call("DELETE", `${samlPath()}/${id}`)).status).toBe(205);
    expect((await h.call("GET", `${samlPath()}/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `${samlPath()}/${id}`)).status).toBe(204);
    expect((await h.call("GET", `/orgs/${h.org()}/sso`)).body.items).toEqual([]);
  });

  it("links a default team and forgets it when the team is deleted", async () => {
    const team = await h.call("PUT", `/orgs/${h.org()}/teams`, { title: "SSO users" });
    const res = await h.call("POST", samlPath(), { label: "Azure", defaultTeam: team.body.id });
    expect(res.body.defaultTeam).toMatchObject({ object: "team", id: team.body.id });
    await h.call("DELETE", `/orgs/${h.org()}/teams/${team.body.id}`);
    expect((await h.call("GET", `${samlPath()}/${res.body.id}`)).body).not.toHaveProperty("defaultTeam");
    const bad = await h.call("POST", samlPath(), { label: "x", defaultTeam: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^defaultTeam:/);
  });

  it("enforces the SAML limits", async () => {
    const cases: [unknown, string][] = [
      [{ label: "" }, "label: must not be empty"],
      [{ label: "l".repeat(31) }, "label: must be at most 30 characters"],
      [{ label: "x", entityID: "e".repeat(1025) }, "entityID: must be at most 1024 characters"],
      [{ label: "x", certificate: "c".repeat(10001) }, "certificate: must be at most 10000 characters"],
      [{ label: "x", ssoURL: "not a url" }, "ssoURL: must be a valid absolute URI"],
      [
        { label: "x", ssoURL: `https://idp.example.com/${"p".repeat(2048)}` },
        "ssoURL: must be at most 2048 characters",
      ],
      [{ label: "x", defaultRole: "owner" }, "defaultRole: must be one of admin, create, edit, review, comment, read"],
      [{}, "label: is required"],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("POST", samlPath(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(h.emulator.store.samlProviders.size).toBe(0);
  });
});
