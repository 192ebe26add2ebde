/**
 * The audit trail (official `listOrganizationAuditEvents`, user tokens only): newest first, filtered by `from`/`to`
 * (inclusive ISO times), and by exact `action`, `actor` (id) and `target` (id); `limit` 1..100, default 20. The
 * events are written by the server (audit.ts), not here.
 */
import { BadRequestError } from "../../errors";
import { paginate } from "../../pagination";
import type { Env, Route } from "../../types";
import { type Query, queryString } from "../../validate";
import { ok, requireOrg } from "../common";
import type { AuditEventRec } from "./records";

const MAX_AUDIT_LIMIT = 100;
const DEFAULT_AUDIT_LIMIT = 20;

function timeFilter(query: Query, name: string): number | undefined {
  const raw = queryString(query, name);
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(ms)) {
    throw new BadRequestError(`${name}: must be a date-time (ISO 8601), got "${raw}"`);
  }
  return ms;
}

function auditLimit(query: Query): string {
  const raw = queryString(query, "limit");
  if (raw === undefined) return String(DEFAULT_AUDIT_LIMIT);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_AUDIT_LIMIT) {
    throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_AUDIT_LIMIT}, got "${raw}"`);
  }
  return raw;
}

function renderAuditEvent(env: Env, e: AuditEventRec) {
  return {
    object: "audit-event",
    id: e.id,
    occurredAt: e.occurredAt,
    action: e.action,
    actor: e.actor,
    source: e.source,
    target: e.target,
    urls: { location: `${env.apiBase}/orgs/${e.orgId}/audit-events/${e.id}` },
  };
}

export const auditEventRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/audit-events",
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const from = timeFilter(ctx.query, "from");
      const to = timeFilter(ctx.query, "to");
      const action = queryString(ctx.query, "action");
      const actor = queryString(ctx.query, "actor");
      const target = queryString(ctx.query, "target");
      const limit = auditLimit(ctx.query);
      const events = [...ctx.store.auditEvents.values()]
        .filter((e) => {
          const at = Date.parse(e.occurredAt);
          return (
            e.orgId === org.id &&
            (from === undefined || at >= from) &&
            (to === undefined || at <= to) &&
            (action === undefined || e.action === action) &&
            (actor === undefined || e.actor.id === actor) &&
            (target === undefined || e.target.id === target)
          );
        })
        .reverse();
      return ok(paginate({ ...ctx, query: { ...ctx.query, limit } }, events, (e) => renderAuditEvent(ctx.env, e)));
    },
  },
];
