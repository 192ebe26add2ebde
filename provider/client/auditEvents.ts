import { z } from "zod";
import { organizationPath } from "./organization";
import { parseResponse } from "./parse";
import type { HttpClient } from "./transport";

/** The official `AuditEvent.source`: where a change came from. */
export const AUDIT_SOURCES = ["ui", "api", "integration", "webhook", "workflow", "script", "support"] as const;

/** The official `AuditEvent`, unknown fields ignored; a source the document adds later is kept as text. */
export const AuditEventSchema = z.object({
  id: z.string(),
  occurredAt: z.string(),
  action: z.string(),
  actor: z.object({ type: z.string(), id: z.string(), label: z.string().optional() }),
  source: z.string(),
  target: z.object({ type: z.string(), id: z.string(), label: z.string().optional() }),
});
export type ApiAuditEvent = z.infer<typeof AuditEventSchema>;

const AuditPageSchema = z.object({
  items: z.array(AuditEventSchema),
  next: z.object({ page: z.string() }).nullish(),
});

/** The official maximum `limit` of `listOrganizationAuditEvents` (other listings take 1000). */
export const AUDIT_PAGE_SIZE = 100;

export const auditEventsPath = (organizationId: string) => `${organizationPath(organizationId)}/audit-events`;

/** The official filters, each exact; `from` and `to` are inclusive ISO times. */
export interface AuditFilter {
  from?: string;
  to?: string;
  action?: string;
  actor?: string;
  target?: string;
}

export interface AuditListing {
  /** Newest first, as the API orders them. */
  events: ApiAuditEvent[];
  /** Requests made (one per page). */
  pages: number;
  /** More pages remained when `maxPages` was reached: the oldest events of the window are missing. */
  truncated: boolean;
}

/**
 * One filtered listing of an organization's audit events (`listOrganizationAuditEvents`, user tokens only), at most
 * `maxPages` pages of 100: a window with more events stops there and says so, and a cursor that does not advance
 * ends it, so a misbehaving server never makes it loop.
 */
export async function listAuditEvents(
  client: HttpClient,
  organizationId: string,
  filter: AuditFilter,
  maxPages: number,
): Promise<AuditListing> {
  const path = auditEventsPath(organizationId);
  const events: ApiAuditEvent[] = [];
  const seen = new Set<string>();
  let page: string | undefined;
  for (let pages = 1; ; pages++) {
    const query = { ...filter, limit: AUDIT_PAGE_SIZE, page };
    const answer = await client.request("GET", path, { userTokenOnly: true, query });
    const result = parseResponse(AuditPageSchema, answer, "GET", client.displayPath(path));
    events.push(...result.items);
    const next = result.next?.page;
    if (!next || next === page || seen.has(next)) return { events, pages, truncated: false };
    if (pages >= maxPages) return { events, pages, truncated: true };
    seen.add(next);
    page = next;
  }
}
