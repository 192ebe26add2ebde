import { z } from "zod";
import { listAll } from "./pagination";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/** What a content permission is granted on, and the base of its `…/permissions` paths. */
export type PermissionTarget =
  | { kind: "space"; spaceId: string }
  | { kind: "collection"; collectionId: string }
  | { kind: "site"; organizationId: string; siteId: string };
export type Grantee = "team" | "user";

const enc = encodeURIComponent;

/** The one place the three targets' paths are built. */
export function permissionsPath(target: PermissionTarget): string {
  switch (target.kind) {
    case "space":
      return `/spaces/${enc(target.spaceId)}/permissions`;
    case "collection":
      return `/collections/${enc(target.collectionId)}/permissions`;
    case "site":
      return `${sitePath(target.organizationId, target.siteId)}/permissions`;
  }
}

/** `…/permissions/teams` or `…/permissions/users`: the listing a grant is read from. */
export const granteesPath = (target: PermissionTarget, grantee: Grantee) => `${permissionsPath(target)}/${grantee}s`;

const granteePath = (target: PermissionTarget, grantee: Grantee, id: string) =>
  `${granteesPath(target, grantee)}/${enc(id)}`;

/** One entry of a grants listing, reduced to the grantee's id and the role (null: a site's guest override). */
export interface ApiGrant {
  granteeId: string;
  role: string | null;
}

const TeamGrantSchema = z
  .object({ permission: z.string().nullable(), team: z.object({ id: z.string() }) })
  .transform((g): ApiGrant => ({ granteeId: g.team.id, role: g.permission }));
const UserGrantSchema = z
  .object({ permission: z.string().nullable(), user: z.object({ id: z.string() }) })
  .transform((g): ApiGrant => ({ granteeId: g.user.id, role: g.permission }));

export function listGrants(client: HttpClient, target: PermissionTarget, grantee: Grantee): Promise<ApiGrant[]> {
  const schema = grantee === "team" ? TeamGrantSchema : UserGrantSchema;
  return listAll(client, granteesPath(target, grantee), {}, schema);
}

/**
 * Grants `role` (`POST …/permissions` with one team or user); granting the same role again changes nothing. `null`
 * makes the grantee a guest (the official `MemberRoleOrGuest`), which only this call can set: the PATCH of a grant
 * takes a role.
 */
export async function grant(
  client: HttpClient,
  target: PermissionTarget,
  grantee: Grantee,
  id: string,
  role: string | null,
): Promise<void> {
  // Setting a role is idempotent, so a lost answer may be retried like a PUT.
  await client.request("POST", permissionsPath(target), { body: { role, [`${grantee}s`]: [id] }, idempotent: true });
}

export async function setGrantRole(
  client: HttpClient,
  target: PermissionTarget,
  grantee: Grantee,
  id: string,
  role: string,
): Promise<void> {
  await client.request("PATCH", granteePath(target, grantee, id), { body: { role } });
}

export function revokeGrant(client: HttpClient, target: PermissionTarget, grantee: Grantee, id: string) {
  return client.delete(granteePath(target, grantee, id));
}
