/** The records of the organization family's tables (declared in index.ts); routes render them (render.ts). */

import type { MemberRole, MergeRules } from "../../validate";

export interface OrgRec {
  id: string;
  title: string;
  hostname: string;
  createdAt: string;
  emailDomains: string[];
  defaultRole: MemberRole | null;
  inviteLinks: boolean;
  /** SSO enforced organization-wide; absent means false. */
  sso?: boolean;
  /** The AI features; absent means on. */
  ai?: boolean;
  /** The logo's URL (reported as `urls.logo`). */
  logo?: string;
  /** The site of `defaultContent` (`{ type: "site", site }`). */
  defaultSiteId?: string;
  /** As the last PATCH sent it; absent means `{ type: "none" }`. */
  mergeRules?: MergeRules;
}

export interface UserRec {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
}

export interface MemberRec {
  orgId: string;
  userId: string;
  role: MemberRole | null;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
}

export interface AgentInstructionsRec {
  /** The key: one per organization. */
  orgId: string;
  /** A JSONDocument, kept as sent. */
  instructions: Record<string, unknown>;
  updatedAt: string;
  /** The member who last wrote them: the token's user. */
  updatedBy: string;
}
