/** The records of the teams family's tables (declared in index.ts); routes render them (render.ts). */

import type { MemberRole } from "../../validate";

export type TeamRole = "owner" | "member";

export interface TeamRec {
  id: string;
  orgId: string;
  title: string;
  createdAt: string;
  /** userId → role, in insertion order. */
  members: Map<string, TeamRole>;
}

/** A grant of a role on a space, collection or site to a team or a user (`…/permissions`). */
export interface PermissionRec {
  target: "space" | "collection" | "site";
  targetId: string;
  grantee: "team" | "user";
  granteeId: string;
  /** Sites also take `null` (guest). */
  role: MemberRole | null;
}
