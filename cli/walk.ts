/**
 * The walk of an organization that `import` turns into a program. It never maps API objects to inputs itself: each
 * object's inputs are what the kind's own `read` reports (the provider runtime, as a refresh runs it), run through the
 * kind's own `check`, and confirmed by the kind's own `diff` to adopt with no change. Objects the API can only list
 * are enumerated through the runtime's shared listings, so the reads that follow cost no request.
 */
import { ENUMERATED_KINDS, enumerate, type Listed, listKind, UserTokenRefusals } from "./enumerate";
import { definitions, KindFailure, lifecycle } from "./provider";

type Props = Record<string, unknown>;
type Adoptable = { inputs: Props } | { reason: string };

/** One object of the organization and the inputs that adopt it unchanged. */
export interface WalkedObject {
  kind: string;
  id: string;
  /** What names it in the app: a title, label, name or slug. */
  title: string;
  /** The site it lives under, for site-family kinds. */
  siteId?: string;
  /** Declared inputs, `importId` excluded. */
  inputs: Props;
}

/** An object the walk found but cannot declare so that adopting it changes nothing. */
export interface Problem {
  kind: string;
  id: string;
  title: string;
  reason: string;
}

export interface NamedId {
  id: string;
  title: string;
}

export interface Walk {
  organizationId: string;
  /**
   * Parents before children: the organization's settings, collections (as a tree), spaces, teams, SAML providers,
   * OpenAPI specs, grants on spaces and collections, then site by site.
   */
  objects: WalkedObject[];
  problems: Problem[];
  /** Objects the program refers to but does not declare, for its constants: spaces (when not walked) and users. */
  spaces: NamedId[];
  users: NamedId[];
}

const importPlans = new Map(definitions.map((definition) => [definition.kind, definition.imported]));
const plan = (kind: string) => importPlans.get(kind);

/** The kinds the walk covers, in program order: every kind `enumerate` lists that is imported as its own resource. */
export const WALKED_KINDS: readonly string[] = ENUMERATED_KINDS.filter((kind) => {
  const imported = plan(kind);
  return imported !== undefined && "word" in imported;
});

/** Kinds whose objects the walk declares inside another kind's resource, and where. */
export const DECLARED_INSIDE: Readonly<Record<string, string>> = Object.fromEntries(
  definitions.flatMap(({ kind, imported }) => (imported && "inside" in imported ? [[kind, imported.inside]] : [])),
);

/**
 * The provider's kinds the walk does not declare at all, and why: `import --help`, the end of its output and the
 * generated project's README say so (test/cli/import.test.ts checks that these, DECLARED_INSIDE and WALKED_KINDS are
 * every kind).
 */
export const NOT_WALKED: Readonly<Record<string, string>> = Object.fromEntries(
  definitions.flatMap(({ kind, imported }) => (imported && "never" in imported ? [[kind, imported.never]] : [])),
);

export interface WalkOptions {
  organizationId: string;
  /** Only these kinds (default: all of WALKED_KINDS). */
  kinds?: readonly string[];
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
  /** Progress lines, for stderr. */
  progress?: (line: string) => void;
}

export async function walkOrganization(options: WalkOptions): Promise<Walk> {
  const { organizationId } = options;
  const wanted = new Set(options.kinds ?? WALKED_KINDS);
  const progress = options.progress ?? (() => undefined);
  const objects: WalkedObject[] = [];
  const problems: Problem[] = [];

  const refusals = new UserTokenRefusals();
  /** Reads run a few at a time; the results keep the listing's order. */
  const adoptAll = async (kind: string, items: Listed[]) => {
    const found = await mapLimited(items, READS_IN_FLIGHT, (item) =>
      adoptable(kind, item.id, item.known).catch((error: unknown) => {
        if (refusals.note(kind, error)) return { gone: true } as const;
        throw error instanceof KindFailure ? error : new KindFailure(kind, error);
      }),
    );
    items.forEach((item, i) => {
      const result = found[i]!;
      // An object deleted between the listing and its read is simply not there any more; so is a site's adaptive
      // schema that was never written.
      if ("gone" in result) return;
      const imported = plan(kind);
      if ("inputs" in result && imported && "leaveOut" in imported) {
        for (const key of imported.leaveOut ?? []) delete result.inputs[key];
      }
      const { id, title, siteId } = item;
      if ("reason" in result) problems.push({ kind, id, title, reason: result.reason });
      else objects.push({ kind, id, title, ...(siteId ? { siteId } : {}), inputs: result.inputs });
    });
  };

  let site: { id: string; title: string } | undefined;
  let before = 0;
  const report = () => {
    progress(
      site
        ? `site "${site.title}": ${objects.length - before} objects`
        : `organization ${organizationId}: ${objects.length} objects (settings, collections, spaces, teams, SAML, OpenAPI, grants)`,
    );
    before = objects.length;
  };
  const batches = enumerate({ organizationId, kinds: wanted, siteId: options.siteId, passOver: refusals.passOver });
  for await (const batch of batches) {
    if (batch.site?.id !== site?.id) {
      report();
      site = batch.site;
    }
    if (batch.refused !== undefined) refusals.note(batch.kind, batch.refused);
    await adoptAll(batch.kind, batch.items);
  }
  refusals.throwIfAny();
  report();

  const declared = new Set(objects.map((o) => o.id));
  const referenced = new Set(objects.flatMap((o) => stringsOf(o.inputs)).filter((id) => !declared.has(id)));
  const spaces = referenced.size > 0 ? await listKind(organizationId, "Space") : [];
  const members = objects.some((o) => o.kind === "Team" || typeof o.inputs.userId === "string")
    ? await listKind(organizationId, "OrganizationMember")
    : [];
  const users = members.map((m) => ({ id: String(m.known.userId), title: m.title }));
  return {
    organizationId,
    objects,
    problems,
    spaces: spaces.filter((s) => referenced.has(s.id)).map((s) => ({ id: s.id, title: s.title })),
    users: users.filter((u) => referenced.has(u.id)),
  };
}

/**
 * The inputs that adopt one object with no change: the kind's read reports every input property's current value;
 * nulls the kind's check rejects mean "absent" to the API (the diff treats null and absent alike) and are left out,
 * as are values that leaving the property out gives anyway (defaults) or that mean nothing when declared.
 */
export async function adoptable(kind: string, id: string, known: Props): Promise<Adoptable | { gone: true }> {
  const kindLifecycle = lifecycle(kind);
  const read = await kindLifecycle.lookup(id, known);
  if (read.id === "") return { gone: true };
  const { importId: _importId, ...reported } = read.inputs ?? {};
  let candidate: Props = reported;
  let checked = await kindLifecycle.check({}, candidate);
  while (checked.failures?.length) {
    // A failure names its property in `property`, or only in its reason when the value is sensitive or huge.
    const failures = checked.failures;
    const nulls = Object.keys(candidate).filter(
      (key) =>
        candidate[key] === null && failures.some((f) => f.property === key || f.reason.startsWith(`${kind}.${key}:`)),
    );
    if (nulls.length === 0) {
      return {
        reason: `its current values fail the kind's check (${checked.failures.map((f) => f.reason).join("; ")})`,
      };
    }
    candidate = Object.fromEntries(Object.entries(candidate).filter(([key]) => !nulls.includes(key)));
    checked = await kindLifecycle.check({}, candidate);
  }
  const full = checked.inputs ?? {};
  const inputs: Props = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (full[key] === undefined) continue;
    const { [key]: _dropped, ...without } = candidate;
    const omitted = (await kindLifecycle.check({}, without)).inputs?.[key];
    if (omitted !== undefined && JSON.stringify(omitted) === JSON.stringify(full[key])) continue;
    inputs[key] = value;
  }
  const final = await kindLifecycle.check({}, inputs);
  const diff = await kindLifecycle.diff(id, read.props ?? {}, final.inputs ?? {});
  if (final.failures?.length || diff.changes) {
    return { reason: "no declaration of its current values adopts it without a change (please report this)" };
  }
  return { inputs };
}

/** Reads of one kind in flight at once: fast on a big organization, gentle on a rate-limited token. */
const READS_IN_FLIGHT = 8;

async function mapLimited<T, R>(items: T[], limit: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await each(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Every string an input holds at the depths where ids appear: properties, list items and their fields. */
export function stringsOf(inputs: Props): string[] {
  const found: string[] = [];
  for (const value of Object.values(inputs)) {
    if (typeof value === "string") found.push(value);
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (typeof item === "string") found.push(item);
      else if (item && typeof item === "object") {
        for (const field of Object.values(item)) if (typeof field === "string") found.push(field);
      }
    }
  }
  return found;
}
