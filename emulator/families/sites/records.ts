/** The records of the sites family's tables (declared in index.ts); routes render them (render.ts). */

import type { DefaultLevel } from "../../validate";

export interface SiteRec {
  id: string;
  orgId: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  createdAt: string;
  basename?: string;
  proxy?: string;
  adaptiveContent?: boolean;
  agentsContext: "excluded" | "included";
  defaultLevel: DefaultLevel;
  styleguideSpaceId?: string;
}
