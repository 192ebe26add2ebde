/** The records of the audit family's tables (declared in index.ts); routes render them (render.ts). */

/**
 * One recorded change (the official `AuditEvent`): written by the server for every successful write (audit.ts), never
 * by a route.
 */
export interface AuditEventRec {
  id: string;
  orgId: string;
  occurredAt: string;
  action: string;
  actor: { type: "user"; id: string; label: string };
  source: AuditSource;
  target: { type: string; id: string };
}

/** The official `AuditEvent.source`: where a change came from. */
export const AUDIT_SOURCES = ["ui", "api", "integration", "webhook", "workflow", "script", "support"] as const;

export type AuditSource = (typeof AUDIT_SOURCES)[number];
