import { describe, expect, it } from "vitest";
import { documentOf, textOf } from "../../provider/client";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";
import { captureLog } from "../support/log";

const fixture = useEmulator();
const logged = captureLog();
const settingsPath = (site: string) => `/orgs/${fixture.org()}/sites/${site}/agent-settings`;
interface AgentSettingsBody {
  findings: unknown;
  editing: { customInstructions: unknown };
}
const settings = async (site: string) => (await fixture.api("GET", settingsPath(site))).body as AgentSettingsBody;
const putSettings = (site: string, topics: string, changeRequests: string, customInstructions: unknown) =>
  fixture.api("PUT", settingsPath(site), {
    scans: { topics },
    findings: { changeRequests },
    editing: { customInstructions },
  });

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteAgentSettings",
    inputs: async () => ({
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      scanTopics: "never",
      editingInstructions: "Write in US English.",
    }),
    created: (state) =>
      expect(state).toMatchObject({ scanTopics: "never", editingInstructions: "Write in US English." }),
    updates: [
      updateTo("scanTopics", "auto"),
      updateTo("findingChangeRequests", "always"),
      updateTo("editingInstructions", "Keep samples in TypeScript.\nPrefer short sentences."),
      updateTo("editingInstructions", "", "editingInstructions (cleared)"),
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const current = await settings(id);
        const answer = await putSettings(id, "auto", "never", current.editing.customInstructions);
        expect(answer.status).toBe(200);
      },
      expect: (state) => expect(state).toMatchObject({ scanTopics: "auto", findingChangeRequests: "never" }),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        expect((await putSettings(adoptSite, "never", "always", documentOf("Old"))).status).toBe(200);
        return adoptSite;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        scanTopics: "auto",
      }),
      expect: (state) => expect(state).toMatchObject({ scanTopics: "auto", editingInstructions: "Old" }),
    },
    deleteKeepsObject: "every site has agent settings, and the API documents no defaults to put back",
  },
  fixture,
);

describe("SiteAgentSettings behaviour", () => {
  it("writes only the declared settings, keeping the others as the site has them, formatting and all", async () => {
    const siteId = await fixture.makeSite();
    const formatted = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "heading-1",
          data: {},
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Tone", marks: [] }] }],
        },
        {
          object: "block",
          type: "paragraph",
          data: {},
          nodes: [
            {
              object: "text",
              leaves: [{ object: "leaf", text: "Be brief.", marks: [{ object: "mark", type: "bold" }] }],
            },
          ],
        },
      ],
    };
    expect((await putSettings(siteId, "auto", "always", formatted)).status).toBe(200);
    fixture.emulator.clearRequests();
    const { state } = await created("SiteAgentSettings", {
      organizationId: fixture.org(),
      siteId,
      scanTopics: "never",
    });
    expect(state).toMatchObject({
      scanTopics: "never",
      findingChangeRequests: "always",
      editingInstructions: "Tone\nBe brief.",
    });
    const put = fixture.emulator.requests().find((r) => r.method === "PUT");
    expect(put?.requestBody).toEqual({
      scans: { topics: "never" },
      findings: { changeRequests: "always" },
      editing: { customInstructions: formatted },
    });
  });

  it("adopts writing nothing when the declared settings match, instructions compared as text", async () => {
    const siteId = await fixture.makeSite();
    expect((await putSettings(siteId, "never", "auto-fixable", documentOf("One\nTwo"))).status).toBe(200);
    fixture.emulator.clearRequests();
    await created("SiteAgentSettings", {
      organizationId: fixture.org(),
      siteId,
      scanTopics: "never",
      editingInstructions: "One\nTwo",
    });
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  it("refuses to adopt the settings of another site than siteId, and leaves that site's alone", async () => {
    const other = await fixture.makeSite();
    expect((await putSettings(other, "never", "never", documentOf("Theirs"))).status).toBe(200);
    const inputs = {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      scanTopics: "auto",
      importId: other,
    };
    await expect(lifecycle("SiteAgentSettings").create(inputs)).rejects.toThrow(
      `SiteAgentSettings: importId names site "${other}", the inputs site "${inputs.siteId}"`,
    );
    expect((await settings(other)).findings).toEqual({ changeRequests: "never" });
  });

  it("leaves the settings as they are on delete, and says so", async () => {
    const { id, state } = await created("SiteAgentSettings", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      findingChangeRequests: "never",
    });
    fixture.emulator.clearRequests();
    await lifecycle("SiteAgentSettings").delete(id, state);
    expect(fixture.emulator.requests()).toEqual([]);
    expect((await settings(id)).findings).toEqual({ changeRequests: "never" });
    expect(logged).toEqual([
      `info: SiteAgentSettings "${id}": left as they are (the API documents no defaults to put back).`,
    ]);
  });

  it("turns text into one paragraph per line and reads any document back as its words", () => {
    expect(textOf(documentOf("a\n\nb"))).toBe("a\n\nb");
    expect(documentOf("")).toEqual({ object: "document", data: {}, nodes: [] });
    expect(
      textOf({
        object: "document",
        nodes: [
          {
            object: "block",
            nodes: [{ object: "inline", nodes: [{ object: "text", leaves: [{ text: "x" }, { text: "y" }] }] }],
          },
          "junk",
          null,
        ],
      }),
    ).toBe("xy\n\n");
  });
});

describe("SiteAgentSettings limits", () => {
  const valid = { organizationId: "org", siteId: "site" };
  const cases: LimitCase[] = [
    [{ scanTopics: "always" }, "scanTopics", /auto.*never/],
    [{ findingChangeRequests: "auto" }, "findingChangeRequests", /always.*auto-fixable.*never/],
    [{ editingInstructions: 7 }, "editingInstructions", /string/],
  ];
  it("rejects each value out of the API's limits at check, before any request", async () => {
    await expectEachLimitRejected("SiteAgentSettings", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
