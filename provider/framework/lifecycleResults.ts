import type { Props } from "./kind";

/**
 * What a Lifecycle (./lifecycle.ts) answers, in the terms of neither route: the dynamic route's provider object
 * (./dynamic.ts) and the plugin's gRPC service (../plugin/server.ts) each translate these to their protocol. The
 * field names follow the engine's words (`outs`, `props`), which both protocols share.
 */

/** A rule the inputs break: the property it is about (`""` where naming it would echo a value) and why. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Either the checked inputs, or what is wrong with them: never both. */
export type CheckResult = { inputs: Props; failures?: undefined } | { failures: CheckFailure[]; inputs?: undefined };

/**
 * How one property changes: `add` where the state holds no value, `update` where it holds another; `delete` where
 * the state holds a property the resource no longer has. `replace`: this change replaces the object.
 */
export interface PropertyChange {
  kind: "add" | "update" | "delete";
  replace: boolean;
}

/**
 * The diff of a resource's declared inputs against its state, computed once for both routes. `detailedDiff` has a
 * change for each property that differs, in the order the inputs list them; `replaces` the ones that replace.
 * `changes` is also true for a change the API does not see (another connection), which no property shows.
 */
export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, PropertyChange>;
}

export interface CreateResult {
  id: string;
  outs: Props;
}

/** A read's answer. An empty id: the object is gone (refresh drops it, the next `up` creates it again). */
export interface ReadResult {
  id: string;
  props: Props;
  /** The inputs the state should hold from now on; absent for an object that is gone. */
  inputs?: Props;
}

export interface UpdateResult {
  outs: Props;
}
