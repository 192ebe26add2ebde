/**
 * The organization's instructions for the Docs agent: read and replaced whole (official
 * `getOrganizationAgentInstructions`, `updateOrganizationAgentInstructions`; user tokens only). The document states
 * no read of instructions never set: the emulator answers an empty document, so a first PUT is never a 404.
 */

import type { Env, Route } from "../../types";
import { parseBody, req } from "../../validate";
import { ok, requireOrg } from "../common";
import { jsonDocument } from "../siteSettings/siteAgentSettings";
import { instructionsOf, setInstructions } from "./agentInstructionsStore";
import type { AgentInstructionsRec } from "./records";

const path = "/v1/orgs/{organizationId}/agent-instructions";

function render(env: Env, rec: AgentInstructionsRec) {
  return {
    object: "agent-instructions",
    instructions: structuredClone(rec.instructions),
    updatedAt: rec.updatedAt,
    updatedBy: rec.updatedBy,
    // "Relative URL to the resource in the API" (official).
    urls: {
      location: `${env.apiBase.slice(env.origin.length)}/orgs/${encodeURIComponent(rec.orgId)}/agent-instructions`,
    },
  };
}

export const agentInstructionsRoutes: Route[] = [
  {
    method: "GET",
    path,
    security: "user",
    handler: (ctx) => ok(render(ctx.env, instructionsOf(ctx.store.tables, requireOrg(ctx).id))),
  },
  {
    method: "PUT",
    path,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, { instructions: req(jsonDocument) }, { required: true });
      return ok(render(ctx.env, setInstructions(ctx.store.tables, org.id, body.instructions)));
    },
  },
];
