import { z } from "zod";
import type { HttpClient } from "../client";
import type { Listings } from "./listings";

/** What a kind's CRUD functions get besides their arguments. */
export interface ResourceContext {
  client: HttpClient;
  /** Listings shared by all resources of one provider process, for kinds the API can only list. */
  listings: Listings;
}

/** Any flat record of properties, as the engine stores inputs and outputs. */
export type Props = Record<string, unknown>;

/**
 * The characters the API's ids are made of (the official document's `EntityId`, `^[a-zA-Z0-9_-]+$`; the emulator's
 * ids are 20 alphanumerics). Anything else in an id would change the request's path: `..` climbs to the parent
 * object, `/`, `?` and `#` end the segment, `%` escapes, whitespace is never part of an id.
 */
export const API_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const API_ID_RULE = "must be an id: letters, digits, `-` and `_` only";

/** Every id input of every kind, and `importId`, is this schema (the reference and the tests find them by its pattern). */
export const apiId = z.string().regex(API_ID_PATTERN, API_ID_RULE);

/**
 * An id input naming an object of another kind: preflight checks the id against that kind's listing
 * (`KindDefinition.listing`), under the parent the same inputs name (a section's `siteId`).
 */
export const idRef = (kind: string) => apiId.meta({ refersTo: kind });

/** An id made of two API ids joined by `/` (a team member's `<teamId>/<userId>`). */
export const apiIdPair = z
  .string()
  .regex(
    new RegExp(`^${API_ID_PATTERN.source.slice(1, -1)}/${API_ID_PATTERN.source.slice(1, -1)}$`),
    "must be two ids joined by `/`: letters, digits, `-` and `_` only",
  );

/** Marks an input whose value may be a secret (a check failure about it never shows the value). */
export const SENSITIVE = { sensitive: true } as const;

/**
 * Marks a plain input where a secret may be given by mistake (a credential among a connector's plain settings): a
 * check failure about it never shows the value, which the engine would otherwise print next to the property. Unlike
 * `SENSITIVE`, the value is not made a secret: a valid one is plain, read back and compared.
 */
export const UNECHOED = { unechoed: true } as const;

/**
 * The object `read` gets to find the API object: the old state, or the checked inputs when adopting with `importId`.
 * Parents' ids, which every path needs, are in both.
 */
export type Known<Inputs, State> = Inputs | State;

/**
 * Everything the framework needs to know about one kind of resource, declared as data plus a few CRUD functions
 * (after terraform-plugin-framework's schema + CRUD, and pulumi-go-provider's `infer`). The zod schemas are the only
 * place per-field facts live: `.describe()` texts, limits and defaults become the check rules, the generated
 * reference (docs/resources.md) and the Resource classes' typed, documented properties (resources/generated.ts).
 *
 * The state (the resource's Pulumi outputs) holds every input property, as the API currently reports it, plus the
 * output-only properties; `diff` compares declared inputs with it, so drift seen by `read` shows up in previews.
 */
export interface KindDefinition<Inputs extends Props = Props, State extends Props = Props> {
  /** The resource kind: the type token is `pulumi-nodejs:dynamic/docs:<kind>`, the class is `<kind>`. */
  kind: string;
  /** The texts of the reference and the generated classes that no schema holds. */
  docs: KindDocs;
  /** Whether the kind lives in an organization or under a site (groups the reference and the README table). */
  scope: "organization" | "site";
  /** Validates and defaults the program's inputs in `check`. A property left `undefined` is not managed. */
  inputs: z.ZodType<Inputs, unknown>;
  /** Reads old outputs tolerantly: state written by older versions of this package must still load. */
  state: z.ZodType<State, unknown>;
  /** Input properties whose change the API cannot apply in place. */
  replaceOnChanges?: readonly (keyof Inputs & string)[];
  /**
   * Replace-causing properties whose change `check` refuses at preview, with `why` (what a replacement destroys),
   * unless the program sets the kind's `allowReplace` input (which must then be one of its provider options).
   */
  guardedReplaces?: {
    properties: readonly (keyof Inputs & string)[];
    why: string;
    /** Guards only while the old inputs satisfy this (a replacement is harmless otherwise). */
    when?: (olds: Partial<Inputs>) => boolean;
  };
  /** Delete the old object before creating its replacement (unique names, one-per-parent objects). */
  deleteBeforeReplace?: boolean;
  /**
   * Input properties that only steer the provider (such as how long to wait for processing): kept in the state,
   * passed to the CRUD functions, never sent to the API and never a reason for a diff.
   */
  providerOptions?: readonly (keyof Inputs & string)[];
  /** Array input properties compared as sets (order-insensitive). */
  setProperties?: readonly (keyof Inputs & string)[];
  /**
   * Array input properties whose items are told apart by a unique field (`{ redirects: "source" }`): previews show
   * one line per item added, removed or changed, by that field, instead of a diff by position, which reads one item
   * added near the start as a rewrite of every item after it. Such properties compare as sets (see keyed.ts).
   */
  keyedProperties?: { readonly [K in keyof Inputs & string]?: string };
  /**
   * What a change does, in a reviewer's words, where the preview's property diff cannot say it (a new order shows
   * there as ids at positions): diff prints it as an info line, once per operation. `olds` is the state, `news` the
   * declared inputs, `changed` the input properties that differ; `undefined` says nothing.
   */
  describeChange?(id: string, olds: State, news: Inputs, changed: ReadonlySet<string>): string | undefined;
  /**
   * The kind whose objects hold this kind's, and this kind's input naming that parent's id (a share link's site:
   * `{ kind: "Site", input: "siteId" }`); absent: the organization. Parents' parents follow from their own kinds, so
   * the chain from the organization down is data: what a listing is made under, and the parts of an import id.
   */
  parent?: KindParent;
  /** How the resource id relates to the parent's (see `IdRelation`); absent: `own`. */
  id?: IdRelation;
  /** How the kind's objects are listed under their parent; absent for kinds whose objects only a read finds. */
  listing?: KindListing;
  /** How `docs-platform import` declares the kind's listed objects, or why it does not (every registered kind says). */
  imported?: ImportPlan;
  /** Output-only properties: they must be registered as `undefined` props or the engine never resolves them. */
  outputs: readonly (keyof State & string)[];
  /** Output properties to store and show as secrets. */
  secretOutputs?: readonly (keyof State & string)[];
  /** How to write the resource id in documentation and for `importId`. */
  idFormat: string;
  /** Validates `importId` in check: an API id unless the kind's ids are composite. */
  importId?: z.ZodType<string, string>;
  /** Rules about the program's other resources, checked offline across the operation (programRules.ts, companions.ts). */
  programRules?: ProgramRules<Inputs>;
  /**
   * Preflight checks of the kind's own, for what only the API can tell and no `idRef` names (a page of the declared
   * space): run after the references' checks when preflight is on, each failure naming the field and the fix. Inputs
   * not known yet (an object the same update creates) are `up`'s to check: skip them (`containsUnknown`).
   */
  preflightChecks?(api: PreflightApi, inputs: Inputs): Promise<PreflightFailure[]>;

  /**
   * For kinds with nothing to create (an organization's settings, an existing membership): create takes over the
   * object `id` names, as `importId` does (read it, then write only the declared fields that differ); `missing` says
   * what to do when there is no such object. Such kinds have no `create`.
   */
  adoptsOnCreate?: { id: (inputs: Inputs) => string; missing: string };
  /** Required unless `adoptsOnCreate`. */
  create?(ctx: ResourceContext, inputs: Inputs): Promise<Found<State>>;
  /**
   * The objects a create with these inputs may have made, for when its outcome is unknown (the response was lost,
   * see `outcomeUnknown` and framework/recovery.ts): found by a key the API keeps unique where there is one (a slug,
   * a space within a site or section, a user within a team), else by the declared title, name or label among the
   * parent's objects created at or after `since` (objects the API reports without `createdAt` all count). Reads
   * fresh from the API, never from shared listings. Exactly one candidate is adopted, several fail naming them. Also
   * the lookup for recovering a create left pending by a killed run. Kinds whose create is an idempotent PUT at an
   * address the inputs fix may omit it: repeating their create cannot duplicate anything.
   */
  findCreated?(ctx: ResourceContext, inputs: Inputs, since: Date): Promise<CreatedCandidate[]>;
  /**
   * The object as the API reports it now, or `undefined` when the API answers that this is not (any more) the
   * resource's object. A 404 from any request here means the same: the framework turns it into "gone", so a kind
   * never catches it. `declared` is the set of input properties the program manages, when known.
   */
  read(
    ctx: ResourceContext,
    id: string,
    known: Known<Inputs, State>,
    declared: ReadonlySet<string> | undefined,
  ): Promise<Found<State> | undefined>;
  /** Applies the changed properties in place and returns the whole new state. */
  update(ctx: ResourceContext, id: string, olds: State, news: Inputs, changed: ReadonlySet<string>): Promise<State>;
  delete(ctx: ResourceContext, id: string, state: State): Promise<void>;
}

/** What a kind's own preflight checks use: the resource's client and the operation's cache of listed ids. */
export interface PreflightApi {
  client: HttpClient;
  /** Whether the listing at `path` (loaded once per operation by `load`) holds `id`; a miss reloads it once. */
  exists(path: string, id: string, load: () => Promise<string[]>): Promise<boolean>;
  /** The object at `path`, loaded once per operation by `load` (a failure too). */
  object<T>(path: string, load: () => Promise<T>): Promise<T>;
}

export interface PreflightFailure {
  property: string;
  reason: string;
}

/** The kind whose objects hold a kind's (`KindDefinition.parent`), and the input naming the parent's id. */
export interface KindParent {
  kind: string;
  input: string;
}

/**
 * How a kind's resource id relates to its parent's (`KindDefinition.id`), which is what an import id is made of:
 * - `own`: the object's own id, under its parent (a share link's id, with the site as parent);
 * - `parent`: one object per parent, which has the parent's id (a site's structure has the site's id, the
 *   organization's settings the organization's);
 * - `{ pair }`: the parent's id and another joined by `/`, `pair` naming the other (a team member's
 *   `<teamId>/<userId>` is `{ pair: "userId" }`); its `importId` is then `apiIdPair`.
 */
export type IdRelation = "own" | "parent" | { pair: string };

/**
 * The parent a kind's objects are listed under: the organization (`ids` holds `organizationId` only), or one listed
 * object of the parent kind (`ids` adds the parent's id under the input that names it, such as `siteId`).
 */
export interface ListingParent {
  ids: Props;
  /** What names the parent in the app (the organization's title, a site's title). */
  title: string;
  /** The parent as the API reports it, when it was listed (a site's visibility). */
  item?: unknown;
  /** The site the parent is or lives under. */
  siteId?: string;
}

/** One object as its parent's listing names it. */
export interface ListedObject<Item = unknown> {
  /** The resource id: what `importId` takes. */
  id: string;
  /** What names it in the app: a title, label, name or slug. */
  title: string;
  /** What the kind's `read` needs besides the id: the parents' ids, and hints such as a spec's source form. */
  known: Props;
  /** Where it lives, for reports, when that is not its site: `team "Writers"`. */
  under?: string;
  /** The site it is or lives under; objects listed under an object inherit its site. */
  siteId?: string;
  /** The object as the API reports it (lookups read its fields; kinds listed under it get it as `parent.item`). */
  item?: Item;
}

/**
 * How a kind's objects are found without knowing their ids: under which parent, by which listing. One facet serves
 * every reader: `docs-platform import` and `unmanaged` enumerate an organization through it, preflight checks the
 * ids an input refers to (`apiId.meta({ refersTo: "<Kind>" })`) against it, and the lookups search it. Listings go
 * through `ctx.listings`, the cache the kinds' reads share, so a read that follows costs no request.
 */
export interface KindListing<Item = unknown> {
  /** The objects under one parent (the kind's `parent`), in the order a program should declare them (parents before children). */
  list(ctx: ResourceContext, parent: ListingParent): Promise<ListedObject<Item>[]>;
  /** The listing's path under the API's base URL (what preflight's message tells the user to `curl`). */
  path(parentIds: Props): string;
  /** What an input referring to this kind names, when it is not the resource id: a property of `known` (`userId`). */
  referredToAs?: string;
  /** The kind in a sentence ("no <noun> has the id …"); default: the kind's name in lower-case words. */
  noun?: string;
  /**
   * Only a read tells whether a listed object exists (a site's adaptive schema: every site may have one); `unmanaged`
   * reads before reporting it.
   */
  existsOnlyIfRead?: boolean;
  /**
   * Resources other than one of this kind with the object's id that manage a listed object, for `unmanaged`: a
   * resource of `byOutput.kind` whose output `byOutput.property` holds its id (a section's first site space); the
   * parent's resource when it declares `byParentInput` (a team declaring `members` owns all of them); a resource of
   * `byKindUnder` for the same parent (a site's SiteRedirects owns every redirect of the site); a resource of this
   * kind with the same parent and `byKey` input (a redirect made again by hand has a new id and the same source).
   */
  managedBy?: {
    byOutput?: { kind: string; property: string };
    byParentInput?: string;
    byKindUnder?: string;
    byKey?: string;
  };
  /**
   * Whether `docs-platform unmanaged` reports listed objects no resource of the stack manages. Not for what every
   * organization or site has one of (settings, navigation, sign-in), nor for what people, not programs, make
   * (members), nor for one object standing for many that are reported one by one (a site's redirects).
   */
  unmanaged: boolean;
}

/** How `docs-platform import` declares a kind's listed objects. */
export type ImportPlan =
  /** One resource per object, named `<title>-<word>`; `heading` opens the organization-level group in the program. */
  | {
      word: string;
      heading?: string;
      /** Resource options every declaration gets (a space is never deleted with the stack: `{ retainOnDelete: true }`). */
      resourceOptions?: string;
      /** Inputs the read reports that the declaration leaves out, unmanaged (a site's sections' site spaces). */
      leaveOut?: readonly string[];
    }
  /** Declared as part of another kind's resource: where. */
  | { inside: string }
  /** Not declared: why, as `import --help` and its output say. */
  | { never: string };

/** A kind's texts for the reference (docs/resources.md) and the generated classes' doc comments. */
export interface KindDocs {
  /** What the kind is: the class's doc comment and the reference's first paragraph. */
  description: string;
  /** What a user must know that no field says: paragraphs or `- ` bullets of the reference, in markdown. */
  notes?: readonly string[];
  /** A short program declaring the kind (TypeScript), shown in the reference. */
  example: string;
  /** How to adopt an existing object: what to pass as `importId` and what then happens. */
  adoption: string;
}

/**
 * Rules a kind's resource obeys with respect to the program's other resources, which check can only judge across the
 * whole operation (the engine shows the provider one resource at a time). Declared apart from the CRUD facts since
 * they are about programs, not about the API.
 */
export interface ProgramRules<Inputs extends Props = Props> {
  /**
   * A boolean input at most one resource per parent may set (a site's default section): check warns when two
   * resources of the program set it under the same parent, since the API keeps one and each run would flip it.
   */
  exclusiveFlag?: { property: keyof Inputs & string; parent: keyof Inputs & string };
  /**
   * A value the resource an input refers to must have for this one to work (a share link's site must have visibility
   * `share-link`): check warns when that resource, seen by diff, create or update in the same operation, has another.
   * `why` says what goes wrong.
   */
  expectsOfReferenced?: ReferencedExpectation & { reference: keyof Inputs & string };
  /**
   * Inputs that together name the one API object a resource of this kind manages (an organization's settings, one
   * membership): check fails for a second resource of the program naming the same object, since each would undo the
   * other's changes on every run.
   */
  uniqueBy?: readonly (keyof Inputs & string)[];
  /** A resource of another kind the program should declare for this one when it is in a given state (companions.ts). */
  companion?: CompanionRule;
  /**
   * Another kind that manages the same API objects under the same parent (a SiteRedirects owns every redirect of its
   * site, a SiteRedirect one of them): check warns when a program declares both under one parent, saying `why`.
   */
  conflictsUnder?: { parent: keyof Inputs & string; kind: string; why: string };
}

/** What a kind expects of the resource one of its inputs refers to (`ProgramRules.expectsOfReferenced`). */
export interface ReferencedExpectation {
  reference: string;
  kind: string;
  property: string;
  value: string;
  why: string;
}

/** A resource of another kind the program should declare for this one when it is in a given state (companions.ts). */
export interface CompanionRule {
  /** The subject's input property and the value that calls for a companion. */
  when: { property: string; equals: unknown };
  /** The companion's kind, and its input property holding the subject's id. */
  kind: string;
  parent: string;
  /** What goes wrong without it, and what to declare. */
  why: string;
}

/** An object a create may have made: its id (what `importId` takes) and the title, name or key that names it. */
export interface CreatedCandidate {
  id: string;
  title: string;
}

/** An object as the API reports it: its id (the resource's Pulumi id) and the resource state made from it. */
export interface Found<State> {
  id: string;
  state: State;
}

export function defineKind<Inputs extends Props, State extends Props>(
  definition: KindDefinition<Inputs, State>,
): KindDefinition<Inputs, State> {
  return definition;
}
