import { describe, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import type { Props } from "../../provider/framework/kind";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { createLink, waitForFirstSection } from "../../provider/resources/siteExternalLink";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import {
  checked,
  created,
  describeLifecycle,
  expectEachLimitRejected,
  type LimitCase,
  updateTo,
} from "../support/lifecycle";

const fixture = useEmulator();

/** A site with one section: external links need a section-based site. */
async function sectionSite(): Promise<string> {
  const site = await fixture.makeSite();
  await fixture.makeSection(site, fixture.emulator.spaceIds[0]!);
  return site;
}

const sitePath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}`;
const makeGroup = (site: unknown, title = "Group") => fixture.apiCreate(`${sitePath(site)}/section-groups`, { title });

async function baseInputs(): Promise<Props> {
  return {
    organizationId: fixture.org(),
    siteId: await sectionSite(),
    title: "Status page",
    url: "https://status.example.com",
    icon: "signal",
  };
}

let adoptSite: string | undefined;

/** A sleep that only records how long it was asked to wait. */
const record = (pauses: number[]) => async (ms: number) => {
  pauses.push(ms);
};

const client = () => new HttpClient({ baseUrl: fixture.emulator.url, token: fixture.emulator.token });

/** Runs `work` as one engine operation of its own: a refresh after the hand edit, not the one that listed before. */
async function inOperation<T>(work: (operation: Operation) => Promise<T>): Promise<T> {
  const operation = new Operation(definitions);
  try {
    return await work(operation);
  } finally {
    operation.close();
  }
}

describeLifecycle(
  {
    kind: "SiteExternalLink",
    inputs: baseInputs,
    created: (state) => {
      expect(state).toMatchObject({ title: "Status page", url: "https://status.example.com", parentId: null });
      expect(fixture.lastRequestBody("POST", /external-links$/)).toEqual({
        title: "Status page",
        url: "https://status.example.com",
        icon: "signal",
      });
    },
    updates: [
      updateTo("draft", true, "draft (true stages the link)"),
      updateTo("localizedTitle", { fr: "Statut" }),
      updateTo("localizedDescription", { de: "Dienststatus" }),
      updateTo("title", "System status"),
      updateTo("url", "https://status.example.org/docs"),
      updateTo("description", "Uptime of every service"),
      updateTo("icon", null, "icon (null removes it)"),
      updateTo("condition", 'visitor.claims.plan == "pro"'),
      {
        name: "parentId (into a group, then the body names it `parent`)",
        inputs: async (_f, p) => ({ ...p, parentId: await makeGroup(p.siteId) }),
        expect: (state) => {
          expect(state.parentId).toEqual(expect.any(String));
          expect(fixture.lastRequestBody("PATCH", /external-links\/[^/]+$/)).toEqual({ parent: state.parentId });
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await sectionSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const site = fixture.emulator.store.externalLinks.get(id)?.siteId;
        const answer = await fixture.api("PATCH", `${sitePath(site)}/external-links/${id}`, {
          url: "https://hand.example",
        });
        expect(answer.status).toBe(200);
      },
      expect: (state) => expect(state.url).toBe("https://hand.example"),
    },
    adopt: {
      existing: async () => {
        adoptSite = await sectionSite();
        return fixture.apiCreate(`${sitePath(adoptSite)}/external-links`, { title: "Old", url: "https://old.example" });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await sectionSite()),
        title: "Adopted",
        url: "https://adopted.example",
      }),
      expect: (state) => expect(state).toMatchObject({ title: "Adopted", url: "https://adopted.example" }),
    },
  },
  fixture,
);

describe("SiteExternalLink behaviour", () => {
  it("is read from the site's structure, which a refresh lists once per site for every link", async () => {
    const inputs = await baseInputs();
    const first = await created("SiteExternalLink", inputs);
    const second = await created("SiteExternalLink", { ...inputs, title: "Community", url: "https://forum.example" });
    fixture.emulator.clearRequests();
    const reads = await inOperation((operation) =>
      Promise.all([first, second].map(({ id, state }) => lifecycle("SiteExternalLink", operation).read(id, state))),
    );
    expect(reads.map((read) => read.props?.title)).toEqual(["Status page", "Community"]);
    expect(fixture.calls()).toEqual([`GET /v1${sitePath(inputs.siteId)}/structure`]);
  });

  it("moves back to the top level with parent: null", async () => {
    const inputs = await baseInputs();
    const group = await makeGroup(inputs.siteId);
    const { id, state } = await created("SiteExternalLink", { ...inputs, parentId: group });
    expect(state.parentId).toBe(group);
    const { outs } = await lifecycle("SiteExternalLink").update(id, state, { ...inputs, parentId: null });
    expect(outs.parentId).toBeNull();
    expect(fixture.lastRequestBody("PATCH", /external-links\/[^/]+$/)).toEqual({ parent: null });
  });

  it("sees a link moved by hand into a group as drift, and a link deleted by hand as gone", async () => {
    const { id, state, inputs } = await created("SiteExternalLink", await baseInputs());
    const group = await makeGroup(state.siteId);
    await fixture.api("PATCH", `${sitePath(state.siteId)}/external-links/${id}`, { parent: group });
    const read = await inOperation((operation) => lifecycle("SiteExternalLink", operation).read(id, state));
    expect(read.props?.parentId).toBe(group);
    expect(await lifecycle("SiteExternalLink").diff(id, read.props ?? {}, inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    await fixture.api("DELETE", `${sitePath(state.siteId)}/external-links/${id}`);
    const gone = await inOperation((operation) => lifecycle("SiteExternalLink", operation).read(id, state));
    expect(gone.id).toBe("");
  });

  it("waits for the site's first section when the run creates it in parallel, then creates the link", async () => {
    const siteId = await fixture.makeSite();
    const inputs = { ...(await baseInputs()), siteId };
    fixture.emulator.clearRequests();
    const creating = created("SiteExternalLink", inputs);
    const refused = () => fixture.emulator.requests().some((r) => r.method === "POST" && r.status === 400);
    while (!refused()) await new Promise((resolve) => setTimeout(resolve, 5));
    await fixture.makeSection(siteId, fixture.emulator.spaceIds[0]!);
    const { state } = await creating;
    expect(state.title).toBe("Status page");
    const posts = fixture.emulator.requests().filter((r) => r.path.endsWith("/external-links"));
    expect(posts.map((r) => r.status)).toEqual([400, 201]);
  });

  it("fails after the wait with the API's answer, its wait and the fix, and does not wait on another 400", async () => {
    const siteId = await fixture.makeSite();
    const inputs = (await checked("SiteExternalLink", { ...(await baseInputs()), siteId })) as Parameters<
      typeof createLink
    >[3];
    const pauses: number[] = [];
    const failure = createLink(client(), fixture.org(), siteId, inputs, { timeoutMs: 2000, sleep: record(pauses) });
    await expect(failure).rejects.toThrow(
      /failed with 400 Bad Request: .*section-based site structure.* The site still had no section after 2 s: declare a SiteSection of the site; .*`dependsOn: \[section\]`/,
    );
    await expect(failure).rejects.toHaveProperty("cause.status", 400);
    expect(pauses).toEqual([100, 200, 400, 800, 500]);

    const sectioned = await sectionSite();
    const group = await makeGroup(await sectionSite());
    fixture.emulator.clearRequests();
    const noWait = { timeoutMs: 60_000, sleep: record(pauses) };
    await expect(
      createLink(client(), fixture.org(), sectioned, { ...inputs, parentId: group }, noWait),
    ).rejects.toThrow(/failed with 400 Bad Request: parent: /);
    // One look at the structure tells this 400 from a site without sections: no wait, one more POST.
    expect(fixture.calls().filter((call) => call.startsWith("GET"))).toHaveLength(1);
    expect(fixture.calls().filter((call) => call.startsWith("POST"))).toHaveLength(2);
    expect(pauses).toHaveLength(5);
  });

  it("backs off from 100 ms to at most 2 s while it waits, and stops once a section is there", async () => {
    const siteId = await fixture.makeSite();
    const pauses: number[] = [];
    const sleep = async (ms: number) => {
      pauses.push(ms);
      if (pauses.length === 7) await fixture.makeSection(siteId, fixture.emulator.spaceIds[0]!);
    };
    expect(await waitForFirstSection(client(), fixture.org(), siteId, { timeoutMs: 60_000, sleep })).toBe(true);
    expect(pauses).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
  });

  it("sends only the fields declared, and waits on no other failure than a 400", async () => {
    const inputs = await baseInputs();
    await created("SiteExternalLink", {
      ...inputs,
      icon: null,
      description: "Uptime",
      condition: "visitor.claims.staff == true",
    });
    expect(fixture.lastRequestBody("POST", /external-links$/)).toEqual({
      title: "Status page",
      url: "https://status.example.com",
      description: "Uptime",
      condition: "visitor.claims.staff == true",
    });
    fixture.emulator.injectFault({ method: "POST", path: "/external-links$", count: 1, status: 403 });
    fixture.emulator.clearRequests();
    await expect(created("SiteExternalLink", inputs)).rejects.toThrow(/failed with 403 Forbidden/);
    expect(fixture.calls()).toEqual([`POST /v1${sitePath(inputs.siteId)}/external-links`]);
  });

  it("finds a create whose answer was lost by its title and URL", async () => {
    const inputs = await baseInputs();
    await created("SiteExternalLink", inputs);
    await created("SiteExternalLink", { ...inputs, url: "https://other.example" });
    await created("SiteExternalLink", { ...inputs, title: "Other page" });
    const definition = definitions.find((kind) => kind.kind === "SiteExternalLink")!;
    const found = await inOperation((operation) => definition.findCreated!(operation.context(), inputs, new Date(0)));
    expect(found.map((candidate) => candidate.title)).toEqual(["Status page"]);
  });

  it("lists a site's links at any depth for import and unmanaged, known by their site", async () => {
    const inputs = await baseInputs();
    const group = await makeGroup(inputs.siteId);
    const top = await created("SiteExternalLink", inputs);
    const nested = await created("SiteExternalLink", { ...inputs, title: "Forum", parentId: group });
    const definition = definitions.find((kind) => kind.kind === "SiteExternalLink")!;
    const listed = await inOperation((operation) =>
      definition.listing!.list(operation.context(), {
        ids: { organizationId: fixture.org(), siteId: inputs.siteId },
        title: "Docs",
      }),
    );
    const known = { organizationId: fixture.org(), siteId: inputs.siteId };
    // In the structure's order: the group (holding Forum) came before the top-level link.
    expect(listed).toEqual([
      { id: nested.id, title: "Forum", known, under: 'site "Docs"' },
      { id: top.id, title: "Status page", known, under: 'site "Docs"' },
    ]);
  });

  it("fails an update with nothing to send when the link is gone, naming it", async () => {
    const { id, state, inputs } = await created("SiteExternalLink", await baseInputs());
    await fixture.api("DELETE", `${sitePath(state.siteId)}/external-links/${id}`);
    const definition = definitions.find((kind) => kind.kind === "SiteExternalLink")!;
    await expect(
      inOperation((operation) => definition.update(operation.context(), id, state, inputs, new Set())),
    ).rejects.toThrow(`SiteExternalLink "${id}" update: the link disappeared while it was being updated`);
  });
});

describe("SiteExternalLink limits", () => {
  const valid = { organizationId: "org", siteId: "site", title: "Status", url: "https://status.example.com" };
  const cases: LimitCase[] = [
    [{ title: "S" }, "title", /at least 2/],
    [{ title: "x".repeat(129) }, "title", /at most 128/],
    [{ url: "status.example.com" }, "url", /URL/i],
    [{ url: "ftp://files.example.com" }, "url", /URL/i],
    [{ url: `https://example.com/${"x".repeat(2048)}` }, "url", /at most 2048/],
    [{ description: "x".repeat(257) }, "description", /at most 256/],
    [{ icon: "x".repeat(51) }, "icon", /at most 50/],
    [{ condition: "" }, "condition", /at least 1/],
  ];
  it("rejects each value out of the API's limits at check, before any request", async () => {
    await expectEachLimitRejected("SiteExternalLink", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
