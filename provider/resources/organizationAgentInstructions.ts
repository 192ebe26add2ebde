import { z } from "zod";
import {
  type ApiAgentInstructions,
  agentInstructionsPath,
  documentOf,
  getAgentInstructions,
  putAgentInstructions,
  textOf,
} from "../client";
import { apiId, defineKind } from "../framework/kind";
import { logLine } from "../framework/log";

const inputs = z.strictObject({
  organizationId: apiId.describe("The organization whose Docs agent follows these instructions."),
  instructions: z
    .string()
    .describe(
      "What the Docs agent follows in every site and channel of the organization, as plain text: each line is a " +
        'paragraph. `""` clears them.',
    ),
});

const state = z.object({
  organizationId: z.string(),
  instructions: z.string(),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

const toState = (organizationId: string, answer: ApiAgentInstructions): State => ({
  organizationId,
  instructions: textOf(answer.instructions),
});

/** Reads the instructions and writes the declared text when it differs: adopting instructions that match writes nothing. */
async function apply(client: Parameters<typeof getAgentInstructions>[0], news: Inputs): Promise<State> {
  const current = await getAgentInstructions(client, news.organizationId);
  if (textOf(current.instructions) === news.instructions) return toState(news.organizationId, current);
  return toState(
    news.organizationId,
    await putAgentInstructions(client, news.organizationId, documentOf(news.instructions)),
  );
}

export const organizationAgentInstructionsKind = defineKind<Inputs, State>({
  kind: "OrganizationAgentInstructions",
  docs: {
    description:
      "The organization's instructions for its Docs agent, which it follows in every site and channel " +
      "(`/orgs/{organizationId}/agent-instructions`). An organization has one.",
    adoption:
      "Not needed: every organization has instructions (empty until set), and create writes the declared text only " +
      'when it differs. `importId: "<organizationId>"` adopts them.',
    notes: [
      "- The official document admits a user's personal API token only: an integration or OAuth token's 401 fails " +
        "this resource and names the fix.",
      "- The API keeps a rich-text document; `instructions` is plain text, compared as text: instructions formatted " +
        "in the app read as their words, one block per line, and stay as they are until the program's text differs.",
      "- One PUT replaces the document whole; the read before it means a create or update that changes nothing " +
        "sends nothing.",
      '- Deleting the resource leaves the instructions as they are; to clear them, declare `instructions: ""` and ' +
        "run `up` first.",
      "- Declare one per organization: a second fails at preview.",
    ],
    example: `new docs.OrganizationAgentInstructions("agent", {
  organizationId,
  instructions: "Answer in the reader's language.\\nLink to the page an answer comes from.",
});`,
  },
  scope: "organization",
  inputs,
  state,
  id: "parent",
  // One per organization, always there: listing it costs no request.
  listing: {
    path: ({ organizationId }) => agentInstructionsPath(String(organizationId)),
    list: async (_ctx, { ids }) => [{ id: String(ids.organizationId), title: "Docs agent instructions", known: ids }],
    unmanaged: false,
  },
  imported: { word: "agent-instructions" },
  outputs: [],
  idFormat: "the organization id (an organization has one set of agent instructions)",
  replaceOnChanges: ["organizationId"],
  programRules: { uniqueBy: ["organizationId"] },

  // A PUT of the whole document at the organization's own address: repeating it after a lost answer duplicates nothing.
  async create({ client }, news) {
    return { id: news.organizationId, state: await apply(client, news) };
  },

  async read({ client }, id) {
    return { id, state: toState(id, await getAgentInstructions(client, id)) };
  },

  async update({ client }, id, _olds, news, changed) {
    // Only reachable by an importId naming another organization than organizationId (a declared change replaces).
    if (changed.has("organizationId")) {
      throw new Error(
        `OrganizationAgentInstructions: importId names organization "${id}", organizationId "${news.organizationId}"; ` +
          "remove importId (create takes over organizationId's instructions).",
      );
    }
    return apply(client, news);
  },

  async delete(_ctx, id) {
    logLine(
      "info",
      `OrganizationAgentInstructions "${id}": left as they are (deleting this resource only stops managing them).`,
    );
  },
});
