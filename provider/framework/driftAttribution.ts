import { type ApiAuditEvent, type AuditListing, type HttpClient, listAuditEvents } from "../client";
import { notice } from "./notices";

/**
 * With preflight on, a refresh that finds an object changed or gone says who last changed it, when and from where,
 * from the organization's audit trail (`listOrganizationAuditEvents`): one line per drifted resource, which a
 * reviewer reads in the pull request's `preview --refresh`. `docs-platform drift` gives the whole story (every event
 * since the last update, the stack's own runs told apart); this is its one-line form, at the price of one listing
 * per organization and operation, made only once some resource has drifted.
 *
 * The provider does not know when the stack was last updated, so the trail is the organization's newest
 * `AUDIT_PAGES` pages, and the line names the newest event on the object: a hand edit after the last `up` is the
 * newest change to that object, unless the trail's window is too short or the change left no event, which the line
 * then says.
 */
export const AUDIT_PAGES = 3;

export class DriftAttribution {
  /** By client, then organization: a resource with its own connection reads the trail with its own token. */
  private readonly trails = new Map<HttpClient, Map<string, Promise<AuditListing | undefined>>>();
  private unreadableTold = false;

  /** Tells who last changed (or removed) the object of `kind` with `id`, whose refresh found `what`. */
  async tell(
    client: HttpClient,
    organizationId: string,
    subject: { kind: string; id: string },
    what: "gone" | { changed: readonly string[] },
  ): Promise<void> {
    const trail = await this.trail(client, organizationId);
    if (!trail) return;
    const drift = what === "gone" ? "is gone" : `differs (${what.changed.join(", ")})`;
    const latest = trail.events.find((event) => isOn(event, subject.id));
    const about = `${subject.kind} ${subject.id} ${drift}`;
    if (!latest) {
      const window = trail.truncated
        ? `the organization's newest ${trail.events.length} audit events`
        : "its audit trail";
      notice("info", `${about}: changed outside the recorded window (no event on it in ${window})`);
      return;
    }
    const who = latest.actor.label ?? `${latest.actor.type} ${latest.actor.id}`;
    notice("info", `${about}: last changed by ${who} from ${latest.source} at ${latest.occurredAt} (${latest.action})`);
  }

  private trail(client: HttpClient, organizationId: string): Promise<AuditListing | undefined> {
    let byOrganization = this.trails.get(client);
    if (!byOrganization) {
      byOrganization = new Map();
      this.trails.set(client, byOrganization);
    }
    let loading = byOrganization.get(organizationId);
    if (!loading) {
      loading = listAuditEvents(client, organizationId, {}, AUDIT_PAGES).catch((error: unknown) => {
        // Attribution is a courtesy of the preview: a token that may not read the trail (it takes a user's token)
        // costs one line, never the refresh.
        if (!this.unreadableTold) {
          this.unreadableTold = true;
          const why = error instanceof Error ? error.message : String(error);
          notice(
            "info",
            `Drift is not attributed: the audit trail of organization ${organizationId} could not be read (${why}).`,
            "stack",
          );
        }
        return undefined;
      });
      byOrganization.set(organizationId, loading);
    }
    return loading;
  }
}

/** An event on the object: its id, or the last part of a composite id (a grant's `<space>/<user>`). */
export function isOn(event: ApiAuditEvent, id: string): boolean {
  return id !== "" && (event.target.id === id || id.endsWith(`/${event.target.id}`));
}
