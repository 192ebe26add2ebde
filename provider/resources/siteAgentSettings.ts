import { z } from "zod";
import {
  type ApiSiteAgentSettings,
  documentOf,
  FINDING_CHANGE_REQUESTS,
  getSiteAgentSettings,
  putSiteAgentSettings,
  SCAN_TOPICS,
  siteAgentSettingsPath,
  textOf,
} from "../client";
import { defineKind } from "../framework/kind";
import { logLine } from "../framework/log";
import { organizationId, siteId, siteIdsOf, UNDER_SITE, underSiteTitled } from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  scanTopics: z
    .enum(SCAN_TOPICS)
    .optional()
    .describe("Whether the agent scans the site's topics for findings: `auto` or `never`. Left out: not managed."),
  findingChangeRequests: z
    .enum(FINDING_CHANGE_REQUESTS)
    .optional()
    .describe(
      "When a finding opens a change request that fixes it: `always`, `auto-fixable` (only findings the agent can " +
        "fix) or `never`. Left out: not managed.",
    ),
  editingInstructions: z
    .string()
    .optional()
    .describe(
      'Instructions for the editing agent, as plain text: each line is a paragraph. Left out: not managed; `""` ' +
        "clears them.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  scanTopics: z.enum(SCAN_TOPICS),
  findingChangeRequests: z.enum(FINDING_CHANGE_REQUESTS),
  editingInstructions: z.string(),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(settings: ApiSiteAgentSettings, organization: string, site: string): State {
  return {
    organizationId: organization,
    siteId: site,
    scanTopics: settings.scans.topics,
    findingChangeRequests: settings.findings.changeRequests,
    editingInstructions: textOf(settings.editing.customInstructions),
  };
}

/**
 * The PUT replaces all three parts and requires each: the current settings with the declared ones written over them.
 * Instructions the program does not manage go back as the API sent them, formatting and all.
 */
function merged(current: ApiSiteAgentSettings, news: Inputs): ApiSiteAgentSettings {
  return {
    scans: { topics: news.scanTopics ?? current.scans.topics },
    findings: { changeRequests: news.findingChangeRequests ?? current.findings.changeRequests },
    editing: {
      customInstructions:
        news.editingInstructions === undefined
          ? current.editing.customInstructions
          : documentOf(news.editingInstructions),
    },
  };
}

async function apply(client: Parameters<typeof getSiteAgentSettings>[0], news: Inputs): Promise<State> {
  const current = await getSiteAgentSettings(client, news.organizationId, news.siteId);
  const wanted = merged(current, news);
  // A PUT of what the site already has would only move its `updatedAt`: adopting writes nothing.
  const same = JSON.stringify(toState(wanted, "", "")) === JSON.stringify(toState(current, "", ""));
  const settings = same ? current : await putSiteAgentSettings(client, news.organizationId, news.siteId, wanted);
  return toState(settings, news.organizationId, news.siteId);
}

export const siteAgentSettingsKind = defineKind<Inputs, State>({
  kind: "SiteAgentSettings",
  docs: {
    description:
      "How the AI agent built into the editor works on a site's content: topic scans, the change requests its " +
      "findings open, and instructions for its edits (`…/sites/{siteId}/agent-settings`). A site has one. The " +
      "assistant that answers the site's readers is set in SiteCustomization (`ai`) and SiteMcpServer.",
    adoption:
      'Not needed: every site has agent settings, and create writes only the declared ones. `importId: "<siteId>"` ' +
      "adopts them without writing anything when the declared ones already match.",
    notes: [
      "- The API has only a full-replacement PUT that requires all three parts, so every write reads the settings " +
        "first and sends them back with the declared ones written over them (one GET, and one PUT unless nothing " +
        "differs).",
      "- `editingInstructions` is plain text, compared as text: instructions formatted in the app (headings, lists, " +
        "bold) read as their words, one block per line, and stay as they are until the program's text differs.",
      "- The official document states no defaults, so deleting the resource leaves the settings as they are.",
      "- Declare one `SiteAgentSettings` per site; two would overwrite each other's settings.",
    ],
    example: `new docs.SiteAgentSettings("agent", {
  organizationId,
  siteId: site.id,
  scanTopics: "auto",
  findingChangeRequests: "auto-fixable",
  editingInstructions: "Write in US English.\\nKeep code samples in TypeScript.",
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: "parent",
  listing: {
    path: (ids) => siteAgentSettingsPath(...siteIdsOf(ids)),
    // Every site has agent settings: listing them costs no request.
    list: async (_ctx, { ids, title }) => [
      { id: String(ids.siteId), title: `${title} agent settings`, known: ids, under: underSiteTitled(title) },
    ],
    unmanaged: false,
  },
  imported: { word: "agent" },
  outputs: [],
  idFormat: "the site id (a site has one agent settings object)",
  replaceOnChanges: ["organizationId", "siteId"],
  programRules: { uniqueBy: ["siteId"] },

  // A PUT at the site's own address, of the same merged body: repeating it after a lost answer duplicates nothing.
  async create({ client }, news) {
    return { id: news.siteId, state: await apply(client, news) };
  },

  async read({ client }, id, known) {
    return {
      id,
      state: toState(await getSiteAgentSettings(client, known.organizationId, id), known.organizationId, id),
    };
  },

  async update({ client }, id, _olds, news, changed) {
    // Only reachable by adopting with an importId naming another site than siteId (siteId otherwise replaces).
    if (changed.has("siteId")) {
      throw new Error(`SiteAgentSettings: importId names site "${id}", the inputs site "${news.siteId}"`);
    }
    return apply(client, news);
  },

  async delete(_ctx, id) {
    logLine("info", `SiteAgentSettings "${id}": left as they are (the API documents no defaults to put back).`);
  },
});
