/**
 * Content permissions: grants of a role on a space, collection or site to a team or a user. Composed over the tables
 * like every store (store.ts); a grant is deleted with its target or its grantee (tables.ts declares both parents).
 */

import type { Tables } from "../../tables";
import type { MemberRole } from "../../validate";
import type { PermissionRec } from "./records";

/** Which grant: a grantee (team or user) on a target (space, collection or site). */
export type GrantRef = Pick<PermissionRec, "target" | "targetId" | "grantee" | "granteeId">;

const grantKey = (g: GrantRef) => `${g.target}/${g.targetId}/${g.grantee}/${g.granteeId}`;

export class PermissionStore {
  private readonly tables: Tables;

  constructor(tables: Tables) {
    this.tables = tables;
  }

  grantsOf(target: PermissionRec["target"], targetId: string, grantee: PermissionRec["grantee"]): PermissionRec[] {
    return [...this.tables.permissions.values()].filter(
      (g) => g.target === target && g.targetId === targetId && g.grantee === grantee && this.granteeExists(g),
    );
  }

  /**
   * Sets a grantee's role on a target. `null` (guest) is kept on a site and removes a space's or collection's grant,
   * since their listings report roles only (the official `UserContentPermission.permission` is a MemberRole).
   */
  setGrant(ref: GrantRef, role: MemberRole | null): void {
    if (role === null && ref.target !== "site") this.revoke(ref);
    else this.tables.permissions.set(grantKey(ref), { ...ref, role });
  }

  findGrant(target: PermissionRec["target"], targetId: string, grantee: PermissionRec["grantee"], granteeId: string) {
    const found = this.tables.permissions.get(grantKey({ target, targetId, grantee, granteeId }));
    return found && this.granteeExists(found) ? found : undefined;
  }

  revoke(rec: GrantRef): boolean {
    return this.tables.remove("permissions", grantKey(rec));
  }

  /** A grant to a deleted team, or to a user who left the organization, is no longer reported. */
  private granteeExists(g: PermissionRec): boolean {
    return g.grantee === "team" ? this.tables.teams.has(g.granteeId) : this.tables.users.has(g.granteeId);
  }
}
