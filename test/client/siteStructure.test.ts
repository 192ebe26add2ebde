import { describe, expect, it } from "vitest";
import { BadRequestError } from "../../provider/client";
import { getSiteCustomization, putSiteCustomization } from "../../provider/client/siteCustomization";
import { groupSectionIds, removeSectionFromGroup } from "../../provider/client/siteSectionGroups";
import { getSiteObjects } from "../../provider/client/siteStructure";
import { apiError, fakeClockClient, json, type Stub, startStub, useStubs } from "./stub";

/** The site-level reads and writes whose answers the emulator renders one way only, against a stub server. */
const { closeLater } = useStubs();

async function serving(handler: Parameters<typeof startStub>[0]) {
  const stub: Stub = await startStub(handler);
  const { http } = fakeClockClient(stub.url, { retry: { maxAttempts: 1 } });
  closeLater(
    () => stub.close(),
    () => http.close(),
  );
  return { stub, http };
}

describe("getSiteObjects", () => {
  it("keys every section, group and site space at any depth by object and id, once", async () => {
    const space = (id: string) => ({ object: "site-space", id, title: id });
    const section = { object: "site-section", id: "sec-1", siteSpaces: [space("ss-1"), space("ss-2")] };
    const nested = { object: "site-section", id: "sec-2", siteSpaces: [space("ss-3")] };
    const group = {
      object: "site-section-group",
      id: "grp-1",
      // The deprecated `sections` repeats the section children: each object is kept once.
      sections: [nested],
      children: [nested, { object: "site-section-group", id: "grp-2", children: [] }],
    };
    const { http } = await serving((request, res) => {
      expect(request.method).toBe("GET");
      expect(request.url).toBe("/v1/orgs/org-1/sites/site-1/structure");
      json(res, 200, { type: "sections", structure: [section, group] });
    });
    const { structure, byKey } = await getSiteObjects(http, "org-1", "site-1");
    expect(structure.type).toBe("sections");
    expect([...byKey.keys()]).toEqual([
      "site-section/sec-1",
      "site-space/ss-1",
      "site-space/ss-2",
      "site-section-group/grp-1",
      "site-section/sec-2",
      "site-space/ss-3",
      "site-section-group/grp-2",
    ]);
    expect(byKey.get("site-section/sec-2")).toEqual(nested);
    expect(byKey.get("site-space/ss-2")).toEqual(space("ss-2"));
  });

  it("reads a site without sections from its site spaces", async () => {
    const { http } = await serving((_request, res) =>
      json(res, 200, { type: "siteSpaces", structure: [{ object: "site-space", id: "ss-9" }] }),
    );
    const { structure, byKey } = await getSiteObjects(http, "org-1", "site-1");
    expect(structure).toEqual({ type: "siteSpaces", structure: [{ id: "ss-9", object: "site-space" }] });
    expect([...byKey.keys()]).toEqual(["site-space/ss-9"]);
  });

  it("rejects an answer that is not a structure, naming the request", async () => {
    const { http } = await serving((_request, res) => json(res, 200, { type: "sections", structure: [null] }));
    await expect(getSiteObjects(http, "org-1", "site-1")).rejects.toThrow(/GET .*\/sites\/site-1\/structure/);
  });
});

describe("groupSectionIds", () => {
  it("reads the deprecated sections when the group has them", () => {
    expect(
      groupSectionIds({
        object: "site-section-group",
        id: "g",
        sections: [{ object: "site-section", id: "a" }],
        children: [{ object: "site-section", id: "b" }],
      } as never),
    ).toEqual(["a"]);
  });

  it("else the children that are sections, in order", () => {
    const children = [
      { object: "site-section", id: "b" },
      { object: "site-section-group", id: "inner" },
      { object: "site-section", id: "a" },
    ];
    expect(groupSectionIds({ object: "site-section-group", id: "g", children } as never)).toEqual(["b", "a"]);
    expect(groupSectionIds({ object: "site-section-group", id: "g" } as never)).toEqual([]);
  });
});

describe("removeSectionFromGroup", () => {
  const sectionPath = "/v1/orgs/org-1/sites/site-1/sections/sec-1";

  it("sends the official PATCH of the section's group, and nothing else", async () => {
    const { stub, http } = await serving((_request, res) =>
      json(res, 200, { object: "site-section", id: "sec-1", title: "Guides", path: "guides" }),
    );
    await removeSectionFromGroup(http, "org-1", "site-1", "sec-1");
    expect(stub.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      `PATCH ${sectionPath} {"siteSectionGroupId":null}`,
    ]);
  });

  it("takes a section already gone as out of the group", async () => {
    const { stub, http } = await serving((_request, res) => apiError(res, 404, "Not found"));
    await removeSectionFromGroup(http, "org-1", "site-1", "sec-1");
    expect(stub.requests.map((r) => r.method)).toEqual(["PATCH"]);
  });

  it("fails with the API's error when it is not a 404", async () => {
    const { http } = await serving((_request, res) => apiError(res, 400, "siteSectionGroupId: invalid"));
    await expect(removeSectionFromGroup(http, "org-1", "site-1", "sec-1")).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe("getSiteObjects on what the schema does not check", () => {
  it("skips entries of a group's deprecated sections that are not objects", async () => {
    const group = {
      object: "site-section-group",
      id: "grp-1",
      sections: [null, 5, "x", { object: "site-section", id: "s" }],
    };
    const { http } = await serving((_request, res) => json(res, 200, { type: "sections", structure: [group] }));
    const { byKey } = await getSiteObjects(http, "org-1", "site-1");
    expect([...byKey.keys()]).toEqual(["site-section-group/grp-1", "site-section/s"]);
  });
});

describe("site customization requests", () => {
  it("reads with GET and replaces with PUT, without the read-only updatedAt", async () => {
    const { stub, http } = await serving((_request, res) => json(res, 200, {}));
    await getSiteCustomization(http, "org-1", "site-1").catch(() => undefined);
    await putSiteCustomization(http, "org-1", "site-1", { updatedAt: "2026-01-01", styling: { theme: "bold" } }).catch(
      () => undefined,
    );
    expect(stub.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      "GET /v1/orgs/org-1/sites/site-1/customization ",
      'PUT /v1/orgs/org-1/sites/site-1/customization {"styling":{"theme":"bold"}}',
    ]);
  });
});
