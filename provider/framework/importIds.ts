/**
 * Import ids: the string `pulumi import docs:index:<Kind> <name> <importId>` (and the `import` resource option) hands
 * the provider plugin, which gets nothing else (no state, no inputs). Made from two facts every kind declares
 * (kind.ts): its parent chain (`parent`, up to the organization) and how its id relates to the parent's (`id`). The
 * format is the parents' ids from the organization down, then what the resource id adds:
 *
 *   own id under a parent             `[<organizationId>/]<siteId>/<id>`            (SiteShareLink)
 *   one per parent (the parent's id)  `[<organizationId>/]<siteId>`                 (SiteStructure)
 *   a pair holding the parent's id    `[<organizationId>/]<teamId>/<userId>`        (TeamMember)
 *   the organization's own            `<organizationId>`, `<organizationId>/<userId>` (OrganizationSettings, …Member)
 *
 * The organization may be left out when a default organization is set (`docs:organizationId`), unless it is part of
 * the id itself.
 *
 * - `importIdFormat(definition, definitions)`: the format, for the reference (docs/resources.md).
 * - `parseImportId(definition, definitions, importId, defaultOrganizationId?)`: `{ id, parents }`, the resource id and
 *   the parents' ids by the inputs naming them; throws naming the kind, the id, the format and the fix.
 * - `importIdOf(definition, definitions, id, parents)`: the import id of a known object (`docs-platform import`).
 * - `importObject(scope, definition, importId, defaultOrganizationId?)`: what the plugin's `Read` answers on import:
 *   the object as a refresh reads it (`Lifecycle.lookup`), found through the kind's listing under its parent when it
 *   has one, with `__declared` set to every input the read reports. `scope` is the operation (./operation.ts); the
 *   default organization is the stack's (`docs:organizationId`, then `DOCS_ORGANIZATION_ID`).
 *
 * Names no kind.
 */
import type { z } from "zod";
import { NotFoundError } from "../client";
import { explain, withoutStackTrace } from "./explain";
import { KeyedProperties } from "./keyed";
import { API_ID_PATTERN, type KindDefinition, type Props, type ResourceContext } from "./kind";
import type { ReadResult } from "./lifecycleResults";
import { CONFIG_KEYS, defaultOrganizationId, ENV_KEYS } from "./settings";
import { pluginType } from "./typeTokens";

/** What the import id of a kind is made from: the kind's parent chain and id relation. */
type Facts = Pick<KindDefinition, "kind" | "parent" | "id">;
/** The registry, as a list or by name. */
type Kinds<D extends Facts = Facts> = readonly D[] | ((kind: string) => D | undefined);

/** The input naming the organization: the root of every parent chain. */
const ORGANIZATION = "organizationId";
/** The output listing the inputs a program declares (lifecycle.ts): a refresh reports only those. */
const DECLARED = "__declared";

/** The parts of a kind's import id, by the inputs they name. */
interface Shape {
  kind: string;
  /** The parents' id inputs, the organization first (`["organizationId", "siteId"]`). */
  parents: string[];
  /** Every part's placeholder, in order (`["<organizationId>", "<siteId>", "<id>"]`). */
  placeholders: string[];
  /** Where the resource id starts: the parts from here on, joined by `/`, are the id. */
  idFrom: number;
}

function byName<D extends Facts>(kinds: Kinds<D>): (kind: string) => D | undefined {
  if (typeof kinds === "function") return kinds;
  const map = new Map(kinds.map((definition) => [definition.kind, definition]));
  return (kind) => map.get(kind);
}

function shapeOf(definition: Facts, kinds: Kinds): Shape {
  const find = byName(kinds);
  const parents: string[] = [];
  const seen = new Set([definition.kind]);
  for (let child: Facts | undefined = definition; child?.parent; ) {
    const { kind, input } = child.parent;
    parents.unshift(input);
    const parent = find(kind);
    if (!parent || seen.has(kind)) {
      throw new Error(
        `${definition.kind}: its parent chain reaches ${kind}, which is ${parent ? "a cycle" : "no kind"}`,
      );
    }
    seen.add(kind);
    child = parent;
  }
  parents.unshift(ORGANIZATION);
  const relation = definition.id ?? "own";
  const placeholders = parents.map((input) => `<${input}>`);
  if (relation === "own")
    return { kind: definition.kind, parents, placeholders: [...placeholders, "<id>"], idFrom: parents.length };
  const idFrom = parents.length - 1;
  if (relation === "parent") return { kind: definition.kind, parents, placeholders, idFrom };
  return { kind: definition.kind, parents, placeholders: [...placeholders, `<${relation.pair}>`], idFrom };
}

/** Whether the organization may be left out: it is a parent of the object, not part of its id. */
const organizationOptional = (shape: Shape) => shape.idFrom > 0;

function formatOf(shape: Shape): string {
  const [first, ...rest] = shape.placeholders;
  return organizationOptional(shape) ? `[${first}/]${rest.join("/")}` : shape.placeholders.join("/");
}

/** `[<organizationId>/]<siteId>/<id>`: a kind's import id format. */
export function importIdFormat(definition: Facts, definitions: Kinds): string {
  return formatOf(shapeOf(definition, definitions));
}

/** The import id, organization included, of an object whose id and parents' ids (by input) are known. */
export function importIdOf(definition: Facts, definitions: Kinds, id: string, parents: Props): string {
  const shape = shapeOf(definition, definitions);
  const missing = shape.parents.slice(0, shape.idFrom).filter((input) => typeof parents[input] !== "string");
  if (missing.length > 0) {
    throw new Error(`${definition.kind} "${id}": the import id needs ${missing.join(", ")}, which are not known`);
  }
  return [...shape.parents.slice(0, shape.idFrom).map((input) => String(parents[input])), id].join("/");
}

export interface ParsedImportId {
  /** The resource id (the Pulumi id). */
  id: string;
  /** The parents' ids, by the inputs naming them, the organization's included. */
  parents: Record<string, string>;
}

/**
 * The resource id and the parents' ids an import id names. Throws when it does not fit the kind's format (parts
 * missing or too many, a part that is not an API id), or leaves the organization out with no default to take.
 */
export function parseImportId(
  definition: Facts,
  definitions: Kinds,
  importId: string,
  defaultOrganization?: string,
): ParsedImportId {
  const shape = shapeOf(definition, definitions);
  const given = importId.split("/");
  const full = shape.placeholders.length;
  const complete = shape.placeholders.join("/");
  const fail = (problem: string, fix: string): never => {
    throw new Error(
      `${definition.kind}: import id "${importId}" is malformed: ${problem}; expected ${formatOf(shape)}. ${fix}`,
    );
  };
  const example = `Fix: \`pulumi import ${pluginType(definition.kind)} <name> ${complete}\``;
  const optional = organizationOptional(shape);
  const leftOut = optional && given.length === full - 1;
  if (given.length !== full && !leftOut) {
    const expected = optional ? `${full} (or ${full - 1}, the organization left out)` : `${full}`;
    fail(`it has ${given.length} part${given.length === 1 ? "" : "s"} joined by "/", not ${expected}`, `${example}.`);
  }
  const bad = given.find((part) => !API_ID_PATTERN.test(part));
  if (bad !== undefined) {
    const what = bad === "" ? "an empty part" : `part "${bad}" is no id (letters, digits, \`-\` and \`_\` only)`;
    fail(what, `${example}, each part an id as the API reports it.`);
  }
  if (leftOut && defaultOrganization === undefined) {
    fail(
      "it leaves out the organization, and no default organization is set",
      `Fix: start it with \`<organizationId>/\`, or set \`${CONFIG_KEYS.organizationId}\` (or ${ENV_KEYS.organizationId}).`,
    );
  }
  const values = leftOut ? [defaultOrganization as string, ...given] : given;
  const parents = Object.fromEntries(shape.parents.map((input, i) => [input, values[i]!]));
  return { id: values.slice(shape.idFrom).join("/"), parents };
}

/**
 * The inputs a read reports, as a program may declare them: a `null` the kind's input rejects is the state's way of
 * saying "none" (a team's grant has `userId: null`), left out, as a program leaves it out.
 */
function declarable(definition: Pick<KindDefinition, "inputs">, inputs: Props): Props {
  const shape = (definition.inputs as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.fromEntries(
    Object.entries(inputs).filter(([key, value]) => value !== null || shape[key]?.safeParse(null).success !== false),
  );
}

/** What importing needs of the operation (./operation.ts is one): the kinds, the shared context, the lifecycles. */
export interface ImportScope {
  definition(kind: string): KindDefinition | undefined;
  context(): ResourceContext;
  lifecycle(definition: KindDefinition): {
    lookup(id: string, parents: Props): Promise<ReadResult>;
  };
}

/**
 * What the provider plugin's `Read` answers for `pulumi import` (it gets the import id alone): the object as a refresh
 * reads it, its inputs being every input property the read reports, which `__declared` then records (a later refresh
 * reports only declared inputs). Found through the kind's listing under its parent where it has one, which also says
 * what a read needs besides ids (a grant's `teamId` or `userId`); a kind with one object per parent is read directly.
 * Throws naming the kind, the import id and where to find the ids that exist, when there is no such object.
 */
export async function importObject(
  scope: ImportScope,
  definition: KindDefinition,
  importId: string,
  defaultOrganization: string | undefined = defaultOrganizationId(),
): Promise<ReadResult> {
  const kinds = (kind: string) => scope.definition(kind);
  const { id, parents } = parseImportId(definition, kinds, importId, defaultOrganization);
  /** Where the ids that exist are listed: the kind's listing, else its parent's (it has the parent's id). */
  const whereToLook = (): string => {
    if (definition.listing && definition.id !== "parent") {
      return `GET ${definition.listing.path(parents)} lists those that exist`;
    }
    const parent = definition.parent && scope.definition(definition.parent.kind);
    if (definition.parent && parent?.listing) {
      return (
        `a ${definition.kind} has the id of its ${parent.kind}, and GET ${parent.listing.path(parents)} lists the ` +
        `${parent.kind} ids`
      );
    }
    return `check the organization id, and that the token's user is a member of organization "${parents[ORGANIZATION]}"`;
  };
  const noSuchObject = () => new Error(`${definition.kind}: import id "${importId}": no such object; ${whereToLook()}`);

  let known: Props = parents;
  if (definition.listing && definition.id !== "parent") {
    let listed: { id: string; known: Props }[];
    try {
      listed = await definition.listing.list(scope.context(), { ids: parents, title: "" });
    } catch (error) {
      // A parent that is not there (a site's listing answers 404) holds no such object either.
      if (error instanceof NotFoundError) throw noSuchObject();
      throw withoutStackTrace(explain(definition, "import", importId, error));
    }
    const found = listed.find((item) => item.id === id);
    if (!found) throw noSuchObject();
    known = { ...parents, ...found.known };
  }
  const read = await scope.lifecycle(definition).lookup(id, known);
  if (!read.id) throw noSuchObject();
  const inputs = declarable(definition, read.inputs ?? {});
  // Stored as a refresh stores them (Lifecycle.read): keyed properties by their key.
  const keyed = new KeyedProperties(definition.keyedProperties).keyed(inputs);
  return { id: read.id, props: { ...read.props, [DECLARED]: Object.keys(inputs) }, inputs: keyed };
}
