/**
 * The audit trail (the official `listOrganizationAuditEvents`): the server records one event for every write the API
 * accepted, in one place (server.ts calls `auditScope` before a write is handled and `recordWrite` after), so no
 * route records anything by hand. What the event says is derived from the route's template:
 *
 * - the organization: the path's `{organizationId}`, else the organization of the path's space, collection or
 *   integration installation, resolved before the write (a delete removes it), else the body's `organization` (an
 *   installation's create); a write with none is not recorded;
 * - the target: the object the path addresses, its type the path's words (`sites/{siteId}/sections/{siteSectionId}`
 *   is a `site-section`) and its id the last id of the path, or the created object's `id` for a create; a grant
 *   (`…/permissions/users/{userId}`, two words between two ids) is `<contentId>/<granteeId>`, as the provider
 *   names it;
 * - the action: `<type>.created|updated|deleted`, or `<type>.<verb>` for a POST to a verb after the object's id
 *   (`site.publish`, `space.move`);
 * - the actor: the token's user (the first fixture user, the organization's admin), and the source `api`.
 *
 * A request may say it stands for a change made elsewhere: `X-Emulator-Actor: <userId or email>` makes another
 * member the actor, `X-Emulator-Source: ui` (or any official source) the source. That is how tests make a "hand edit
 * in the app"; the real API has no such header, and the client never sends it.
 */
import { randomUUID } from "node:crypto";
import { BadRequestError } from "../../errors";
import type { Store } from "../../store";
import type { HandlerResult, Route } from "../../types";
import { AUDIT_SOURCES, type AuditEventRec, type AuditSource } from "./records";

export const ACTOR_HEADER = "x-emulator-actor";
export const SOURCE_HEADER = "x-emulator-source";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a write will be recorded under, resolved before it is handled. */
export interface AuditScope {
  orgId: string;
  actor: AuditEventRec["actor"];
  source: AuditSource;
}

/**
 * The scope of a write to `route` (undefined for a read or a write outside any organization). Throws the API's 400
 * for an actor or source header naming nobody or nothing known, so a test cannot record what it did not mean.
 */
export function auditScope(
  store: Store,
  route: Route,
  params: Record<string, string>,
  headers: Record<string, string>,
  body: unknown,
): AuditScope | undefined {
  if (!WRITES.has(route.method)) return undefined;
  const named = (body as { organization?: unknown } | undefined)?.organization;
  const orgId =
    organizationOf(store, params) ?? (typeof named === "string" && store.orgs.has(named) ? named : undefined);
  if (orgId === undefined) return undefined;
  return { orgId, actor: actorOf(store, orgId, headers[ACTOR_HEADER]), source: sourceOf(headers[SOURCE_HEADER]) };
}

function organizationOf(store: Store, params: Record<string, string>): string | undefined {
  if (params.organizationId !== undefined)
    return store.orgs.has(params.organizationId) ? params.organizationId : undefined;
  if (params.spaceId !== undefined) return store.spaces.get(params.spaceId)?.orgId;
  if (params.collectionId !== undefined) return store.collections.get(params.collectionId)?.orgId;
  if (params.installationId !== undefined) return store.integrationInstallations.get(params.installationId)?.orgId;
  return undefined;
}

function actorOf(store: Store, orgId: string, given: string | undefined): AuditEventRec["actor"] {
  const tokenUser = store.users.keys().next().value ?? "";
  const wanted = given?.trim() || tokenUser;
  const user = [...store.users.values()].find((u) => u.id === wanted || u.email === wanted);
  if (!user || !store.members.has(`${orgId}/${user.id}`)) {
    throw new BadRequestError(`${ACTOR_HEADER}: "${wanted}" is not a member of organization "${orgId}"`);
  }
  return { type: "user", id: user.id, label: user.email };
}

function sourceOf(given: string | undefined): AuditSource {
  const source = given?.trim() || "api";
  if (!(AUDIT_SOURCES as readonly string[]).includes(source)) {
    throw new BadRequestError(`${SOURCE_HEADER}: must be one of ${AUDIT_SOURCES.join(", ")}, got "${source}"`);
  }
  return source as AuditSource;
}

/** `sites` → `site`, `section-groups` → `section-group`. */
function singular(word: string): string {
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** Records the event of a write the API accepted (a 2xx answer); nothing for a refused one. */
export function recordWrite(
  store: Store,
  scope: AuditScope | undefined,
  route: Route,
  params: Record<string, string>,
  result: HandlerResult,
): void {
  if (!scope || result.status < 200 || result.status > 299) return;
  // A DELETE of what did not exist (204) changed nothing.
  if (route.method === "DELETE" && result.status === 204) return;
  const segments = route.path.split("/").slice(2);
  if (segments[0] === "orgs" && segments[1] === "{organizationId}") segments.splice(0, 2);
  const lastParam = segments.map((s) => s.startsWith("{")).lastIndexOf(true);
  const ids = segments.flatMap((s) => (s.startsWith("{") ? [params[s.slice(1, -1)] ?? ""] : []));
  const trailing = segments.slice(lastParam + 1);
  const words = segments.filter((s, i) => !s.startsWith("{") && i <= lastParam).map(singular);
  const createdId = (result.body as { id?: unknown } | undefined)?.id;
  let type: string;
  let id: string;
  let action: string;
  if (segments.length === 0) {
    type = "organization";
    id = scope.orgId;
    action = route.method === "DELETE" ? "deleted" : "updated";
  } else if (trailing.length > 0 && typeof createdId === "string" && createdId !== ids[ids.length - 1]) {
    type = [...words, ...trailing].map(singular).join("-");
    id = createdId;
    action = "created";
  } else if (trailing.length > 0 && route.method === "POST" && lastParam >= 0) {
    type = words.join("-");
    id = ids[ids.length - 1] ?? "";
    action = trailing.join("-");
  } else if (trailing.length > 0) {
    // A part every object has (`sites/{siteId}/customization`), or a create that answered no body.
    type = [...words, ...trailing].map(singular).join("-");
    id = ids[ids.length - 1] ?? scope.orgId;
    action = route.method === "PUT" && lastParam < 0 ? "created" : "updated";
  } else {
    const between = segments.slice(
      segments
        .slice(0, lastParam)
        .map((s) => s.startsWith("{"))
        .lastIndexOf(true) + 1,
      lastParam,
    );
    type = words.join("-");
    id = between.length > 1 && ids.length > 1 ? ids.slice(-2).join("/") : (ids[ids.length - 1] ?? "");
    action = route.method === "DELETE" ? "deleted" : "updated";
  }
  store.recordAuditEvent({
    id: randomUUID(),
    orgId: scope.orgId,
    occurredAt: store.now(),
    action: `${type}.${action}`,
    actor: scope.actor,
    source: scope.source,
    target: { type, id },
  });
}
