import type { z } from "zod";
import type { HttpClient } from "../client";
import type { Listings } from "./listings";

/** What a resource's CRUD functions get besides their arguments. */
export interface ResourceContext {
  client: HttpClient;
  /** Listings shared by all resources of one provider process, for kinds the API can only list. */
  listings: Listings;
}

/** Any flat record of properties, as the engine stores inputs and outputs. */
export type Props = Record<string, unknown>;

/**
 * Everything the framework needs to know about one kind of resource, declared as data plus a few pure or CRUD
 * functions (after terraform-plugin-framework's schema + CRUD, and pulumi-go-provider's `infer`).
 *
 * The state (the resource's Pulumi outputs) holds every input property, as the API currently reports it, plus the
 * output-only properties; `diff` compares declared inputs with it, so drift seen by `read` shows up in previews.
 */
export interface ResourceSpec<Inputs extends Props = Props, State extends Props = Props> {
  /** The resource kind: the type token is `pulumi-nodejs:dynamic/docs:<kind>`. */
  kind: string;
  /** Validates and defaults the program's inputs in `check`. A property left `undefined` is not managed. */
  inputs: z.ZodType<Inputs, unknown>;
  /** Reads old outputs tolerantly: state written by older versions of this package must still load. */
  state: z.ZodType<State, unknown>;
  /** Input properties whose change the API cannot apply in place. */
  replaceOnChanges?: readonly (keyof Inputs & string)[];
  /** Delete the old object before creating its replacement (unique names, one-per-parent objects). */
  deleteBeforeReplace?: boolean;
  /**
   * Input properties that only steer the provider (such as how long to wait for processing): kept in the state,
   * passed to the CRUD functions, never sent to the API and never a reason for a diff.
   */
  settings?: readonly (keyof Inputs & string)[];
  /** Array input properties compared as sets (order-insensitive). */
  setProperties?: readonly (keyof Inputs & string)[];
  /** Output-only properties: they must be registered as `undefined` props or the engine never resolves them. */
  outputs: readonly string[];
  /** Output properties to store and show as secrets. */
  secretOutputs?: readonly string[];
  /** How to write the resource id in documentation and for `importId`. */
  idFormat: string;

  create(ctx: ResourceContext, inputs: Inputs): Promise<Found<State>>;
  /**
   * `undefined` when the object no longer exists; a NotFoundError thrown here means the same. `known` is the old state, or the inputs when adopting with
   * `importId`: it carries the parents' ids that the API paths need.
   */
  read(ctx: ResourceContext, id: string, known: Props): Promise<Found<State> | undefined>;
  /** Applies the changed properties in place and returns the whole new state. */
  update(ctx: ResourceContext, id: string, olds: State, news: Inputs, changed: ReadonlySet<string>): Promise<State>;
  delete(ctx: ResourceContext, id: string, state: State): Promise<void>;
}

/** An object as the API reports it: its id (the resource's Pulumi id) and the resource state made from it. */
export interface Found<State> {
  id: string;
  state: State;
}

export function defineResource<Inputs extends Props, State extends Props>(
  spec: ResourceSpec<Inputs, State>,
): ResourceSpec<Inputs, State> {
  return spec;
}
