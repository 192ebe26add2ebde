import { describe, expect, it } from "vitest";
import { type Json, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const sitePath = (site: string) => `/orgs/${h.org()}/sites/${site}`;

async function created(path: string, body: Record<string, unknown>): Promise<Json> {
  const res = await h.call("POST", path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A site with one section, where links may go. */
async function sectionSite(): Promise<string> {
  const site = (await created(`/orgs/${h.org()}/sites`, { title: "Docs" })).id;
  await created(`${sitePath(site)}/sections`, { spaceId: h.emulator.spaceIds[0] });
  return site;
}

const link = (site: string, body: Record<string, unknown> = {}) =>
  created(`${sitePath(site)}/external-links`, { title: "Status", url: "https://status.example", ...body });

async function topLevel(site: string): Promise<Json[]> {
  const res = await h.call("GET", `${sitePath(site)}/structure`);
  expect(res.status).toBe(200);
  return res.body.structure.map((item: Json) => [item.object, item.title]);
}

describe("site external links", () => {
  it("creates a link at the end of the top level, with a Location, and lists it in the structure", async () => {
    const site = await sectionSite();
    const res = await h.call("POST", `${sitePath(site)}/external-links`, {
      title: "Status",
      url: "https://status.example",
      icon: "signal",
      description: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: "site-external-link",
      id: expect.any(String),
      title: "Status",
      url: "https://status.example",
      draft: false,
      icon: "signal",
    });
    expect(res.headers.get("location")).toBe(`${h.emulator.url}${sitePath(site)}/external-links/${res.body.id}`);
    expect((await topLevel(site)).at(-1)).toEqual(["site-external-link", "Status"]);
  });

  it("refuses a site without sections, a group of another site and a relative URL, with 400", async () => {
    const bare = (await created(`/orgs/${h.org()}/sites`, { title: "Bare" })).id;
    const noSections = await h.call("POST", `${sitePath(bare)}/external-links`, {
      title: "Status",
      url: "https://a.b",
    });
    expect(noSections.status).toBe(400);
    expect(noSections.body.error.message).toMatch(/section-based site structure/);

    const site = await sectionSite();
    const foreignGroup = (await created(`${sitePath(await sectionSite())}/section-groups`, { title: "G" })).id;
    const foreign = await h.call("POST", `${sitePath(site)}/external-links`, {
      title: "Status",
      url: "https://a.b",
      parent: foreignGroup,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/^parent: /);

    const relative = await h.call("POST", `${sitePath(site)}/external-links`, { title: "Status", url: "/status" });
    expect(relative.status).toBe(400);
  });

  it("moves a link into a group and back with PATCH parent, and renders it among the group's children", async () => {
    const site = await sectionSite();
    const group = (await created(`${sitePath(site)}/section-groups`, { title: "More" })).id;
    const { id } = await link(site);
    const moved = await h.call("PATCH", `${sitePath(site)}/external-links/${id}`, { parent: group });
    expect(moved.status).toBe(200);
    expect(moved.body.sectionGroup).toBe(group);
    const structure = (await h.call("GET", `${sitePath(site)}/structure`)).body.structure as Json[];
    const rendered = structure.find((item) => item.id === group);
    expect(rendered.children.map((child: Json) => child.id)).toEqual([id]);
    expect(structure.map((item) => item.id)).not.toContain(id);

    const back = await h.call("PATCH", `${sitePath(site)}/external-links/${id}`, { parent: null });
    expect(back.body).not.toHaveProperty("sectionGroup");
    expect((await topLevel(site)).at(-1)).toEqual(["site-external-link", "Status"]);
  });

  it("sorts a link among the top level with structure/sort", async () => {
    const site = await sectionSite();
    const { id } = await link(site);
    const first = (await h.call("GET", `${sitePath(site)}/structure`)).body.structure[0];
    const sorted = await h.call("PATCH", `${sitePath(site)}/structure/sort`, {
      item: { type: "site-external-link", id },
      position: { before: { type: first.object, id: first.id } },
    });
    expect(sorted.status, sorted.text).toBe(200);
    expect(sorted.body.id).toBe(id);
    expect((await topLevel(site))[0]).toEqual(["site-external-link", "Status"]);
  });

  it("moves a deleted group's links up a level, and deletes them with their site", async () => {
    const site = await sectionSite();
    const group = (await created(`${sitePath(site)}/section-groups`, { title: "More" })).id;
    const { id } = await link(site, { parent: group });
    expect((await h.call("DELETE", `${sitePath(site)}/section-groups/${group}`)).status).toBe(205);
    expect(h.emulator.store.externalLinks.get(id)?.groupId).toBeUndefined();
    expect((await h.call("DELETE", sitePath(site))).status).toBe(205);
    expect(h.emulator.store.externalLinks.has(id)).toBe(false);
  });

  it("deletes with 205, then answers 204 for a link that does not exist", async () => {
    const site = await sectionSite();
    const { id } = await link(site);
    expect((await h.call("DELETE", `${sitePath(site)}/external-links/${id}`)).status).toBe(205);
    expect((await h.call("DELETE", `${sitePath(site)}/external-links/${id}`)).status).toBe(204);
    expect((await h.call("PATCH", `${sitePath(site)}/external-links/${id}`, { title: "Gone" })).status).toBe(404);
  });
});
