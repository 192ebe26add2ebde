/**
 * The declared program of the model: a fixed set of slots, each a resource of one kind with a few variants of its
 * inputs. Between two variants of a slot lies an in-place change, a replacing change or a move to another parent; a
 * program is which slots are declared and with which variant. Variants name other slots through Refs, and a program
 * only declares a slot whose references are declared too, as a program in code could only reference what it made.
 */
import type { Props } from "../../provider/framework/kind";
import { type Declared, type Program, type Ref, ref } from "../support/engine";

/** The emulator's fixture ids a program uses. */
export interface Fixtures {
  org: string;
  /** Two members besides the token's own admin. */
  users: [string, string];
  /** Two spaces that exist before the program does. */
  spaces: [string, string];
}

/** Which variant of each declared slot. */
export type Selection = Readonly<Record<string, number>>;

interface Slot {
  kind: string;
  /** Each variant's inputs; `selection` is the whole program, for inputs derived from other slots (an order). */
  variants: ((fixtures: Fixtures, selection: Selection) => Props)[];
}

const organization = (f: Fixtures) => ({ organizationId: f.org });

/**
 * The site's top-level items as the program declares them, for SiteStructure's `order`: its sections outside the
 * group, then the group. A site without sections has a top level of site spaces (none here), where groups do not show.
 */
function topLevelOfSiteA(selection: Selection): Ref[] {
  const inGroup = selection.groupA !== undefined && selection.groupA > 0;
  const sectionA = selection.sectionA !== undefined && selection.sectionA !== SECTION_A_ON_SITE_B;
  const sectionB = selection.sectionB !== undefined;
  const items: Ref[] = [];
  if (sectionA) items.push(ref("sectionA"));
  if (sectionB && !inGroup) items.push(ref("sectionB"));
  if (selection.groupA !== undefined && (sectionA || sectionB)) items.push(ref("groupA"));
  return items;
}

const SECTION_A_ON_SITE_B = 3;

export const SLOTS: Readonly<Record<string, Slot>> = {
  collectionA: {
    kind: "Collection",
    variants: [
      (f) => ({ ...organization(f), title: "Handbook" }),
      (f) => ({ ...organization(f), title: "Handbook two", description: "Edited" }),
    ],
  },
  collectionB: {
    kind: "Collection",
    variants: [
      (f) => ({ ...organization(f), title: "Guides", parentId: ref("collectionA") }),
      (f) => ({ ...organization(f), title: "Guides", parentId: null }),
      (f) => ({ ...organization(f), title: "Guides two", defaultLevel: "read", parentId: ref("collectionA") }),
    ],
  },
  spaceA: {
    kind: "Space",
    variants: [
      (f) => ({ ...organization(f), title: "Alpha", parentId: ref("collectionB") }),
      (f) => ({ ...organization(f), title: "Alpha", parentId: ref("collectionA") }),
      (f) => ({ ...organization(f), title: "Alpha two", parentId: null }),
      (f) => ({ ...organization(f), title: "Alpha", emoji: "1f4d8", editMode: "locked", parentId: null }),
    ],
  },
  teamA: {
    kind: "Team",
    variants: [(f) => ({ ...organization(f), title: "Writers" }), (f) => ({ ...organization(f), title: "Editors" })],
  },
  memberA: {
    kind: "TeamMember",
    variants: [
      (f) => ({ ...organization(f), teamId: ref("teamA"), userId: f.users[0], role: "member" }),
      (f) => ({ ...organization(f), teamId: ref("teamA"), userId: f.users[0], role: "owner" }),
      (f) => ({ ...organization(f), teamId: ref("teamA"), userId: f.users[1] }),
    ],
  },
  grantSpaceA: {
    kind: "SpacePermission",
    variants: [
      () => ({ spaceId: ref("spaceA"), teamId: ref("teamA"), role: "read" }),
      () => ({ spaceId: ref("spaceA"), teamId: ref("teamA"), role: "edit" }),
      (f) => ({ spaceId: ref("spaceA"), userId: f.users[1], role: "read" }),
    ],
  },
  grantCollection: {
    kind: "CollectionPermission",
    variants: [
      (f) => ({ collectionId: ref("collectionA"), userId: f.users[0], role: "read" }),
      (f) => ({ collectionId: ref("collectionA"), userId: f.users[0], role: "admin" }),
      (f) => ({ collectionId: ref("collectionB"), userId: f.users[0], role: "read" }),
    ],
  },
  siteA: {
    kind: "Site",
    variants: [
      (f) => ({ ...organization(f), title: "Docs" }),
      (f) => ({ ...organization(f), title: "Docs two", visibility: "share-link" }),
    ],
  },
  siteB: {
    kind: "Site",
    variants: [(f) => ({ ...organization(f), title: "Archive" })],
  },
  sectionA: {
    kind: "SiteSection",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), spaceId: f.spaces[0], title: "Guides" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), spaceId: f.spaces[0], title: "Guides two", icon: "book" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), spaceId: ref("spaceA"), title: "Guides" }),
      (f) => ({ ...organization(f), siteId: ref("siteB"), spaceId: f.spaces[0], title: "Guides" }),
    ],
  },
  sectionB: {
    kind: "SiteSection",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), spaceId: f.spaces[1], title: "Reference" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), spaceId: f.spaces[1], title: "Reference", path: "api" }),
    ],
  },
  groupA: {
    kind: "SiteSectionGroup",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), title: "Product", sectionIds: [] }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), title: "Product", sectionIds: [ref("sectionB")] }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), title: "Platform", sectionIds: [ref("sectionB")] }),
    ],
  },
  linkA: {
    kind: "SiteShareLink",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), name: "Reviewers" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), name: "Reviewers", active: false }),
      (f) => ({ ...organization(f), siteId: ref("siteB"), name: "Reviewers" }),
    ],
  },
  structureA: {
    kind: "SiteStructure",
    variants: [
      (f, selection) => ({ ...organization(f), siteId: ref("siteA"), order: topLevelOfSiteA(selection) }),
      (f, selection) => ({
        ...organization(f),
        siteId: ref("siteA"),
        order: topLevelOfSiteA(selection).reverse(),
      }),
    ],
  },
};

export const SLOT_NAMES: readonly string[] = Object.keys(SLOTS);

function slot(name: string): Slot {
  const found = SLOTS[name];
  if (!found) throw new Error(`no slot "${name}"`);
  return found;
}

/** Placeholder fixtures: references between slots do not depend on the ids. */
const SHAPE: Fixtures = { org: "org", users: ["u1", "u2"], spaces: ["s1", "s2"] };

/** The slots a variant refers to. */
export function needs(name: string, variant: number, selection: Selection = {}): string[] {
  const inputs = slot(name).variants[variant]?.(SHAPE, selection) ?? {};
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value !== "object" || value === null) return;
    if (typeof (value as Ref).$ref === "string") found.add((value as Ref).$ref);
    else for (const item of Object.values(value)) walk(item);
  };
  walk(inputs);
  return [...found];
}

/** Whether every reference of every declared slot is declared. */
export function closed(selection: Selection): boolean {
  return Object.entries(selection).every(([name, variant]) =>
    needs(name, variant, selection).every((target) => selection[target] !== undefined),
  );
}

/** The selection with `name` declared as `variant`, and with what it refers to that is missing (first variants). */
export function declaring(selection: Selection, name: string, variant: number): Record<string, number> {
  const next: Record<string, number> = { ...selection, [name]: variant };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [other, chosen] of Object.entries(next)) {
      for (const target of needs(other, chosen, next)) {
        if (next[target] === undefined) {
          next[target] = 0;
          changed = true;
        }
      }
    }
  }
  return next;
}

/** The selection without `name` and every slot that (transitively) refers to it. */
export function without(selection: Selection, name: string): Record<string, number> {
  const next: Record<string, number> = { ...selection };
  delete next[name];
  for (let changed = true; changed; ) {
    changed = false;
    for (const [other, variant] of Object.entries(next)) {
      if (needs(other, variant, next).some((target) => next[target] === undefined)) {
        delete next[other];
        changed = true;
      }
    }
  }
  return next;
}

/**
 * The slots whose objects may sit in siteA's top level. SiteStructure's `order` must name every top-level item, and
 * the engine deletes a resource no longer declared only after every registration, so after the structure's update,
 * which then fails naming the item: while the structure is declared, such a resource cannot be removed in one `up`.
 */
const TOP_LEVEL_SLOTS = ["sectionA", "sectionB", "groupA"];

/**
 * Whether applying `selection` to a state holding `applied` removes a top-level item under a declared SiteStructure:
 * the user then applies the program without the structure first (which deletes it, leaving the order as it is), and
 * then with it.
 */
export function removesUnderStructure(selection: Selection, applied: Iterable<string>): boolean {
  if (selection.structureA === undefined) return false;
  return [...applied].some((name) => TOP_LEVEL_SLOTS.includes(name) && selection[name] === undefined);
}

/** The engine's program of a selection, in slot order. */
export function render(selection: Selection, fixtures: Fixtures): Program {
  const program: Program = {};
  for (const name of SLOT_NAMES) {
    const variant = selection[name];
    if (variant === undefined) continue;
    const make = slot(name).variants[variant];
    if (!make) throw new Error(`slot "${name}" has no variant ${variant}`);
    program[name] = { kind: slot(name).kind, inputs: make(fixtures, selection) } satisfies Declared;
  }
  return program;
}

export function variantCount(name: string): number {
  return slot(name).variants.length;
}

export function kindOf(name: string): string {
  return slot(name).kind;
}
