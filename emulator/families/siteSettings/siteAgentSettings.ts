/**
 * A site's agent settings, the configuration of the AI built into the editor (scans, findings, editing
 * instructions): read and replaced whole. Every site has them from its creation (the store's new-site values).
 */
import { BadRequestError } from "../../errors";
import type { Route } from "../../types";
import { arr, type Check, isPlainObject, literal, obj, oneOfValues, opt, parseBody, req, str } from "../../validate";
import { ok, requireSite } from "../common";
import { renderAgentSettings } from "./render";

const path = "/v1/orgs/{organizationId}/sites/{siteId}/agent-settings";

const jsonObject: Check<Record<string, unknown>> = (value, at) => {
  if (!isPlainObject(value)) throw new BadRequestError(`${at}: must be a JSON object`);
  return value;
};

/**
 * The official `JSONDocument`, checked shallowly: its envelope, not its blocks (the document describes two dozen
 * block types; the emulator keeps the blocks as sent).
 */
export const jsonDocument = obj({
  object: req(literal("document")),
  data: req(jsonObject),
  nodes: req(arr(jsonObject)),
  meta: opt(obj({ token: opt(str()) })),
});

export const siteAgentSettingsRoutes: Route[] = [
  {
    method: "GET",
    path,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(renderAgentSettings(ctx.env, site, ctx.store.siteSettingsStore.agentSettings(site)));
    },
  },
  {
    method: "PUT",
    path,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        {
          scans: req(obj({ topics: req(oneOfValues(["auto", "never"])) })),
          findings: req(obj({ changeRequests: req(oneOfValues(["always", "auto-fixable", "never"])) })),
          editing: req(obj({ customInstructions: req(jsonDocument) })),
        },
        { required: true },
      );
      return ok(renderAgentSettings(ctx.env, site, ctx.store.siteSettingsStore.setAgentSettings(site, body)));
    },
  },
];
