/** The records of the content family's tables (declared in index.ts); routes render them (render.ts). */

import type { DefaultLevel, MergeRules } from "../../validate";

export interface SpaceRec {
  id: string;
  orgId: string;
  title: string;
  /** `""` when the space has none (an icon, or both removed). */
  emoji: string;
  /** The icon's URL; set, it replaces the emoji. */
  icon?: string;
  language?: string;
  visibility: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  parentId?: string;
  revision: string;
  defaultLevel: DefaultLevel;
  editMode: "live" | "locked";
  /** Absent: `inherit` (a new space follows its organization's merge rules). */
  mergeRules?: MergeRules;
  position: number;
  /** The create's `computedSource` (computedSource.ts); never reported back. */
  computedSource?: ComputedSource;
  /** `styleguide` for a site's style guide space (made by `POST …/sites/{siteId}/styleguide` only); else absent. */
  type?: "styleguide";
}

export interface CollectionRec {
  id: string;
  orgId: string;
  title: string;
  description?: string;
  parentId?: string;
  defaultLevel: DefaultLevel;
  createdAt: string;
  position: number;
}

/** An item of an ordered level named by kind and id (`site-section`, `space`, …). */
export interface ItemRef {
  kind: string;
  id: string;
}

/** Where a move puts an item: before or after a sibling (at the end when neither is given). */
export interface Placement {
  before?: ItemRef;
  after?: ItemRef;
}

/** The official `ComputedContentSourceRevision` of a space's create, as the emulator keeps it (computedSource.ts). */
export type ComputedSource =
  | { type: "builtin:openapi"; spec: string; models: boolean; grouping?: string; downloadLink?: boolean }
  | { type: "builtin:translation"; translation: string };
