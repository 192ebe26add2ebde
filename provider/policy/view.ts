/**
 * What a rule sees of a docs resource, on either route, from what the policy engine hands a policy: its kind, its
 * Pulumi name, its properties as plain values (an unknown one is the engine's UNKNOWN sentinel), its `protect` option
 * and, in a stack policy, where each property's value came from. This module imports nothing from `@pulumi/policy`:
 * the reference (docs/policy.md) renders the rules' examples through it without the optional peer installed.
 */

import { kindOfType } from "../framework/typeTokens";
import { UNKNOWN } from "../framework/unknown";

export { UNKNOWN };

export interface DocsResource {
  kind: string;
  /** The resource's name in the program (the last part of its URN). */
  name: string;
  urn: string;
  /**
   * Its properties: the inputs after the provider's check in a resource policy; the outputs (inputs at preview for
   * what is not created yet) in a stack policy. A value not known before an `up` is `UNKNOWN`.
   */
  props: Readonly<Record<string, unknown>>;
  protect: boolean;
  /** The URNs each property's value depends on (stack policies only): how resources match while ids are unknown. */
  dependsOn: Readonly<Record<string, readonly string[]>>;
}

/** What a rule found wrong with one resource: the field, the problem and the fix, in words. */
export interface Finding {
  resource: DocsResource;
  field: string;
  problem: string;
  fix: string;
}

/** `<Kind> "<name>", <field>: <problem>. Fix: <fix>.`: the message a violation shows. */
export function messageOf(finding: Finding): string {
  const { resource, field, problem, fix } = finding;
  return `${resource.kind} "${resource.name}", ${field}: ${problem}. Fix: ${fix}.`;
}

export function isKnown(value: unknown): boolean {
  return value !== UNKNOWN;
}

export function knownString(value: unknown): string | undefined {
  return typeof value === "string" && value !== UNKNOWN ? value : undefined;
}

/**
 * The plain object behind the policy SDK's unknown-checking proxy, whose every read of an unknown value throws (and
 * turns the policy into an "advisory: can't run during preview" note): rules read unknowns as UNKNOWN instead.
 */
function plain(props: Record<string, unknown>): Record<string, unknown> {
  const target = props.__getSpecialProxyTarget;
  return target !== null && typeof target === "object" ? (target as Record<string, unknown>) : props;
}

/** The name part of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The fields of a resource as the policy SDK gives them to a resource or a stack policy. */
export interface PolicySubject {
  type: string;
  urn: string;
  name: string;
  props: Record<string, unknown>;
  opts: { protect: boolean };
  propertyDependencies?: Record<string, readonly { urn: string }[]>;
}

/** The docs resource a policy subject is, of either route's type token; undefined for any other resource. */
export function docsResourceOf(subject: PolicySubject): DocsResource | undefined {
  const kind = kindOfType(subject.type);
  if (kind === undefined) return undefined;
  const dependsOn: Record<string, string[]> = {};
  for (const [field, resources] of Object.entries(subject.propertyDependencies ?? {})) {
    dependsOn[field] = resources.map((resource) => resource.urn);
  }
  return {
    kind,
    name: subject.name,
    urn: subject.urn,
    props: plain(subject.props),
    protect: subject.opts.protect === true,
    dependsOn,
  };
}

/**
 * The docs resources of a stack, with the lookups stack rules make; in URN order, as the engine hands them over in
 * no order of its own, and a message listing several should read the same on every run.
 */
export class StackView {
  readonly resources: readonly DocsResource[];

  constructor(resources: readonly DocsResource[]) {
    this.resources = [...resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  }

  ofKind(kind: string): DocsResource[] {
    return this.resources.filter((resource) => resource.kind === kind);
  }

  /**
   * Whether `from`'s `field` holds `to`'s id: its value came from `to` (`siteId: site.id`). Ids are unknown at
   * preview, and a stack policy is not told a resource's id, so the property's dependencies are what match.
   */
  refersTo(from: DocsResource, field: string, to: DocsResource): boolean {
    return from.dependsOn[field]?.includes(to.urn) === true;
  }

  /**
   * What `from`'s `field` names: the `kind` resource of the stack its value came from; else, for a literal id (as
   * `pulumi import` writes references), the `kind` resource whose id it is (`idsOf`); else the literal itself, the id
   * of an object the stack does not declare, which rules judge as unknown; undefined while the value is unknown.
   */
  target(from: DocsResource, field: string, kind: string): { resource: DocsResource } | { id: string } | undefined {
    const resource = this.ofKind(kind).find((candidate) => this.refersTo(from, field, candidate));
    if (resource !== undefined) return { resource };
    const id = knownString(from.props[field]);
    if (id === undefined) return undefined;
    const identified = this.ofKind(kind).find((candidate) => idsOf(candidate).includes(id));
    return identified === undefined ? { id } : { resource: identified };
  }
}

/**
 * The ids a resource is known by to a policy, which is not told resource ids nor the `import` option: its `importId`
 * (an adoption), and the last segment of the API's own URL of its object, `urls.location`
 * (`…/orgs/<o>/sites/<siteId>`), which its outputs carry once it exists, and at preview once an `import` option or
 * `pulumi import` has read it.
 */
export function idsOf(resource: DocsResource): string[] {
  const ids: string[] = [];
  const importId = knownString(resource.props.importId);
  if (importId !== undefined) ids.push(importId);
  const urls = resource.props.urls;
  const location =
    urls !== null && typeof urls === "object" ? knownString((urls as Record<string, unknown>).location) : undefined;
  if (location !== undefined && URL.canParse(location)) {
    const last = new URL(location).pathname.split("/").filter(Boolean).at(-1);
    if (last !== undefined) ids.push(decodeURIComponent(last));
  }
  return ids;
}
