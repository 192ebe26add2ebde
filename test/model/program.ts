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

const SAML = {
  entityId: "http://www.okta.example/exk1",
  certificate: "-----BEGIN CERTIFICATE-----\nMIIDpDCCAoygAwIBAgIGAXoTpbV4MA0=\n-----END CERTIFICATE-----",
  ssoUrl: "https://acme.okta.example/app/acme_docs/exk1/sso/saml",
};
const TICKETS = { integrationName: "ticket-sync" };
const FORUM = "https://forum.example/";
const GLOSSARY_WORKSPACE = { term: "workspace", translations: { de: "Arbeitsbereich", fr: "espace de travail" } };
const GLOSSARY_SPACE = { term: "space", translations: { fr: "espace" } };
const redirect = (source: string) => ({ source, destination: { kind: "external", url: "https://new.example/" } });
const BETA = { type: "boolean", description: "In the beta programme" };
const claims = (unsigned: Record<string, unknown>) => ({
  type: "object",
  properties: {
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: unsigned,
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

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
  // The organization's own settings and members, and its objects besides collections and spaces.
  settings: {
    kind: "OrganizationSettings",
    variants: [
      (f) => ({ ...organization(f), title: "Acme" }),
      (f) => ({ ...organization(f), title: "Acme Docs", inviteLinks: false }),
    ],
  },
  agentInstructions: {
    kind: "OrganizationAgentInstructions",
    variants: [
      (f) => ({ ...organization(f), instructions: "Answer in English." }),
      (f) => ({ ...organization(f), instructions: "Answer in English.\nCite the page an answer comes from." }),
    ],
  },
  memberLinus: {
    kind: "OrganizationMember",
    variants: [
      (f) => ({ ...organization(f), userId: f.users[1], role: "edit" }),
      (f) => ({ ...organization(f), userId: f.users[1], role: "read" }),
    ],
  },
  samlA: {
    kind: "SamlProvider",
    variants: [
      (f) => ({ ...organization(f), ...SAML, label: "Okta" }),
      (f) => ({ ...organization(f), ...SAML, label: "Okta two", defaultTeamId: ref("teamA"), defaultRole: "read" }),
    ],
  },
  specA: {
    kind: "OpenApiSpec",
    variants: [
      (f) => ({ ...organization(f), slug: "petstore", sourceUrl: "https://specs.example/pet.json" }),
      (f) => ({ ...organization(f), slug: "petstore", sourceUrl: "https://specs.example/pet-v2.json" }),
      (f) => ({ ...organization(f), slug: "billing", sourceUrl: "https://specs.example/billing.json" }),
    ],
  },
  translationA: {
    kind: "Translation",
    variants: [
      (f) => ({ ...organization(f), sourceSpaceId: f.spaces[0], sourceLanguage: "en", language: "fr" }),
      (f) => ({
        ...organization(f),
        sourceSpaceId: f.spaces[0],
        sourceLanguage: "en",
        language: "fr",
        instructions: "Address readers with vous.",
      }),
      (f) => ({ ...organization(f), sourceSpaceId: f.spaces[0], sourceLanguage: "en", language: "de" }),
    ],
  },
  glossary: {
    kind: "TranslationGlossary",
    variants: [
      (f) => ({ ...organization(f), sourceLanguage: "en", entries: [GLOSSARY_WORKSPACE] }),
      (f) => ({ ...organization(f), sourceLanguage: "en", entries: [GLOSSARY_WORKSPACE, GLOSSARY_SPACE] }),
    ],
  },
  gitSyncA: {
    kind: "GitSyncInstallation",
    variants: [
      (f) => ({ ...organization(f), provider: "github", spaceId: ref("spaceA"), repositoryId: 1001 }),
      (f) => ({ ...organization(f), provider: "github", spaceId: ref("spaceA"), repositoryId: 1002, branch: "docs" }),
    ],
  },
  installationA: {
    kind: "IntegrationInstallation",
    variants: [
      (f) => ({ ...organization(f), integrationName: "ticket-sync" }),
      (f) => ({ ...organization(f), integrationName: "ticket-sync", configuration: { workspace: "acme" } }),
    ],
  },
  installationOnSite: {
    kind: "IntegrationSiteInstallation",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), installationId: ref("installationA"), ...TICKETS }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        installationId: ref("installationA"),
        ...TICKETS,
        configuration: { project: "DOCS" },
      }),
    ],
  },
  installationOnSpace: {
    kind: "IntegrationSpaceInstallation",
    variants: [
      (f) => ({ ...organization(f), spaceId: ref("spaceA"), installationId: ref("installationA"), ...TICKETS }),
      (f) => ({
        ...organization(f),
        spaceId: ref("spaceA"),
        installationId: ref("installationA"),
        ...TICKETS,
        configuration: { project: "OPS" },
      }),
    ],
  },
  // The site family beyond sections, groups, share links and the structure: siteA's, siteB's, and a site whose
  // readers sign in.
  siteC: {
    kind: "Site",
    variants: [(f) => ({ ...organization(f), title: "Portal", visibility: "visitor-auth" })],
  },
  visitorAuthC: {
    kind: "SiteVisitorAuth",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteC"), fallbackURL: "https://login.example/portal" }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteC"),
        fallbackURL: "https://login.example/partners",
        logoutURL: "https://login.example/out",
      }),
    ],
  },
  grantSiteA: {
    kind: "SitePermission",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), teamId: ref("teamA"), role: "read" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), teamId: ref("teamA"), role: "edit" }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), userId: f.users[0], role: "read" }),
    ],
  },
  customizationA: {
    kind: "SiteCustomization",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), styling: { theme: "clean" } }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), styling: { theme: "gradient" } }),
    ],
  },
  redirectsA: {
    kind: "SiteRedirects",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteA"), redirects: [redirect("/old")] }),
      (f) => ({ ...organization(f), siteId: ref("siteA"), redirects: [redirect("/old"), redirect("/older")] }),
    ],
  },
  siteSpaceA: {
    kind: "SiteSpace",
    variants: [
      // In sectionA, wherever it is (sectionA moves between sites).
      (f) => ({
        ...organization(f),
        siteId: ref("sectionA", "siteId"),
        sectionId: ref("sectionA"),
        spaceId: f.spaces[1],
        path: "start",
      }),
      (f) => ({
        ...organization(f),
        siteId: ref("sectionA", "siteId"),
        sectionId: ref("sectionA"),
        spaceId: f.spaces[1],
        path: "begin",
      }),
    ],
  },
  siteSpaceCustomizationA: {
    kind: "SiteSpaceCustomization",
    variants: [
      (f) => ({
        ...organization(f),
        siteId: ref("sectionA", "siteId"),
        siteSpaceId: ref("sectionA", "siteSpaceId"),
        title: "Guides FR",
      }),
      (f) => ({
        ...organization(f),
        siteId: ref("sectionA", "siteId"),
        siteSpaceId: ref("sectionA", "siteSpaceId"),
        title: "Guides DE",
      }),
    ],
  },
  schemaB: {
    kind: "SiteAdaptiveSchema",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), jsonSchema: claims({ beta: BETA }) }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        jsonSchema: claims({ beta: BETA, plan: { type: "string", enum: ["free", "pro"], description: "Plan" } }),
      }),
    ],
  },
  agentB: {
    kind: "SiteAgentSettings",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), scanTopics: "never" }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        scanTopics: "auto",
        editingInstructions: "Write in US English.",
      }),
    ],
  },
  redirectB: {
    kind: "SiteRedirect",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), ...redirect("/lost") }),
      (f) => ({ ...organization(f), siteId: ref("siteB"), ...redirect("/lost"), permanent: true }),
      (f) => ({ ...organization(f), siteId: ref("siteB"), ...redirect("/gone") }),
    ],
  },
  mcpB: {
    kind: "SiteMcpServer",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), name: "Tickets", url: "https://mcp.example/tickets" }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        name: "Tickets",
        url: "https://mcp.example/tickets",
        headers: { Authorization: "Bearer model-key" },
      }),
    ],
  },
  channelB: {
    kind: "SiteChannel",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), type: "builtin:slack", allowedChannels: ["docs"] }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        type: "builtin:slack",
        role: "collaborator",
        allowedChannels: ["docs", "help-*"],
      }),
      (f) => ({ ...organization(f), siteId: ref("siteB"), type: "builtin:github", allowedRepositories: ["acme/docs"] }),
    ],
  },
  contextB: {
    kind: "SiteContextConnection",
    variants: [
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        connector: "builtin:github-issues",
        setupSettings: { repository: "acme/support" },
        credentials: { token: "model-token" },
        label: "Support issues",
      }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        connector: "builtin:github-issues",
        setupSettings: { repository: "acme/support" },
        credentials: { token: "model-token" },
        filter: "label:docs",
        label: "Docs issues",
      }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        connector: "builtin:website",
        setupSettings: { url: "https://status.acme.example/" },
      }),
    ],
  },
  // External links need a site with sections: siteB's own section, in a group with the link.
  sectionC: {
    kind: "SiteSection",
    variants: [(f) => ({ ...organization(f), siteId: ref("siteB"), spaceId: f.spaces[1], title: "Notes" })],
  },
  groupB: {
    kind: "SiteSectionGroup",
    variants: [(f) => ({ ...organization(f), siteId: ref("siteB"), title: "More", sectionIds: [ref("sectionC")] })],
  },
  externalLinkB: {
    kind: "SiteExternalLink",
    variants: [
      (f) => ({ ...organization(f), siteId: ref("siteB"), parentId: ref("groupB"), title: "Forum", url: FORUM }),
      (f) => ({
        ...organization(f),
        siteId: ref("siteB"),
        parentId: ref("groupB"),
        title: "Forum",
        url: FORUM,
        description: "Ask the community",
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
