/** The records of the saml family's tables (declared in index.ts); routes render them (render.ts). */

import type { MemberRole } from "../../validate";

export interface SamlRec {
  id: string;
  orgId: string;
  label: string;
  ssoURL?: string;
  entityID: string;
  certificate: string;
  defaultTeamId?: string;
  defaultRole: MemberRole | null;
  createdAt: string;
}
