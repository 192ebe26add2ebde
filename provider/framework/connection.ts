/**
 * The one `connection` concept: an organization, API and token source that a resource uses instead of the stack-wide
 * settings (./settings.ts). The program makes a `Connection` and passes it as a resource's `connection` argument; it
 * travels in the resource's inputs and state as `connectionSchema` below, from which the provider makes the
 * resource's client (`clientOf`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HttpClient } from "../client";
import { describeIssue } from "./issues";
import { apiId, type Props } from "./kind";
import type { CheckFailure } from "./lifecycleResults";
import { type Connections, ENV_NAME, MissingCredentialsError, resolveConnection, type TokenSource } from "./settings";
import { containsUnknown } from "./unknown";

function programSdk(): typeof import("@pulumi/pulumi") {
  return require("@pulumi/pulumi");
}

/** Where a `Connection` finds the API, the organization and its token. */
export interface ConnectionArgs {
  /** The API's base URL; default: stack config `docs:apiUrl`, `DOCS_API_URL`, else the public API. */
  apiUrl?: string;
  /** The organization of the resources that use it and leave `organizationId` out (before `docs:organizationId`). */
  organizationId?: string;
  /**
   * The name of an environment variable holding the token, read by the provider in its own process (and by lookups
   * in the program's): only the name is stored. The recommended source.
   */
  tokenEnv?: string;
  /**
   * The token itself, e.g. `config.requireSecret("otherToken")`. It is always made a Pulumi secret, so the state
   * stores it encrypted. Give either `token` or `tokenEnv`; with neither, the stack-wide token is used.
   */
  token?: pulumi.Input<string>;
}

/**
 * A connection to one organization (or API, or token), passed to resources as `connection` the way `aws.Provider`
 * instances are passed as `provider`: one program can manage several organizations. Resources without one use the
 * stack-wide settings. It is not a resource: it travels in each resource's inputs and state (never in the serialized
 * provider), with the token as a secret or only as the name of an environment variable.
 */
export class Connection {
  readonly apiUrl: string | undefined;
  readonly organizationId: string | undefined;
  readonly tokenEnv: string | undefined;
  /** The token as a secret Output, when given as `token`. */
  readonly token: pulumi.Output<string> | undefined;

  constructor(args: ConnectionArgs) {
    if (args.token !== undefined && args.tokenEnv !== undefined) {
      throw new Error("Connection: give either token or tokenEnv, not both.");
    }
    if (args.tokenEnv !== undefined && !ENV_NAME.test(args.tokenEnv)) {
      throw new Error(`Connection: tokenEnv must be the name of an environment variable, not "${args.tokenEnv}".`);
    }
    this.apiUrl = args.apiUrl;
    this.organizationId = args.organizationId;
    this.tokenEnv = args.tokenEnv;
    // Loaded when a program makes one, not with this module: the provider's runtime reads connections without it.
    this.token = args.token === undefined ? undefined : programSdk().secret(args.token);
  }

  /** What a resource's `connection` input holds (`connectionSchema` below). */
  resourceInput(): pulumi.Input<Record<string, pulumi.Input<string>>> {
    const input: Record<string, pulumi.Input<string>> = {};
    if (this.apiUrl !== undefined) input.apiUrl = this.apiUrl;
    if (this.organizationId !== undefined) input.organizationId = this.organizationId;
    if (this.tokenEnv !== undefined) input.tokenEnv = this.tokenEnv;
    if (this.token !== undefined) input.token = this.token;
    return input;
  }
}

/** The `connection` argument every resource accepts. */
export interface ConnectionOption {
  /** The organization, API and token this resource uses instead of the stack-wide settings. */
  connection?: Connection;
}

/**
 * A per-resource connection (the program's `Connection`, passed as a resource's `connection` argument), as it travels
 * in the resource's inputs and state: where the API is, the organization, and where the token comes from. Never the
 * token itself unless the program gave it as a secret: `tokenEnv` is only the name of an environment variable that
 * the provider reads in its own process; a `token` is a Pulumi secret, which the engine keeps secret in the inputs
 * and outputs it stores (it re-marks every value the provider returns under a secret input's path; see resource.ts
 * for why `additionalSecretOutputs` is not used). It is stored in the outputs because refresh and destroy get only
 * the state.
 */
export const CONNECTION = "connection";

export const connectionSchema = z
  .strictObject({
    apiUrl: z.string().min(1).optional(),
    organizationId: apiId.optional(),
    tokenEnv: z.string().regex(ENV_NAME, "must be an environment variable's name").optional(),
    token: z.string().min(1).optional(),
  })
  .refine((c) => c.token === undefined || c.tokenEnv === undefined, "give either token or tokenEnv, not both");

export type ResourceConnection = z.output<typeof connectionSchema>;

/** A connection whose token environment variable is not set in the provider's process. */
export class MissingConnectionTokenError extends Error {
  constructor(variable: string) {
    super(
      `No API token: this resource's connection reads it from the ${variable} environment variable, which is not set ` +
        `for the Pulumi CLI. Export ${variable}=<token> and run again.`,
    );
    this.name = "MissingConnectionTokenError";
  }
}

/**
 * Check failures of a resource's `connection`. They never name the property, so the engine cannot echo its value
 * (which may hold a token); the reason names it.
 */
export function connectionFailures(kind: string, value: unknown): CheckFailure[] {
  if (value === undefined || containsUnknown(value)) return [];
  const parsed = connectionSchema.safeParse(value);
  return (parsed.error?.issues ?? []).map((issue) => ({
    property: "",
    reason: `${kind}.${[CONNECTION, ...issue.path.map(String)].join(".")}: ${describeIssue(issue)} (value not shown)`,
  }));
}

/** The connection a state or inputs carry, or undefined for a resource that uses the stack-wide settings. */
export function connectionOf(props: Props): ResourceConnection | undefined {
  const value = props[CONNECTION];
  // Absent and null fail the schema; a connection with a value not known yet (at preview) is none yet.
  if (containsUnknown(value)) return undefined;
  const parsed = connectionSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The organization a resource that leaves `organizationId` out belongs to: its connection's, when it has one, before
 * the stack-wide default (./defaults.ts).
 */
export function withConnectionOrganization(inputKeys: readonly string[], news: Props): Props {
  const organizationId = connectionOf(news)?.organizationId;
  if (!organizationId || !inputKeys.includes("organizationId") || news.organizationId !== undefined) return news;
  return { ...news, organizationId };
}

/** A resource's client among the operation's: its connection's, or the stack-wide one (config, then environment). */
export function clientOf(connections: Connections, connection: ResourceConnection | undefined): HttpClient {
  const { apiUrl, token } = resolveConnection(connection, missingToken);
  return connections.clientFor(apiUrl, token);
}

/** A resource's `token` is never empty (its schema), so only an unset variable or stack-wide token is missing. */
function missingToken(source: TokenSource): Error {
  return source.from === "tokenEnv" ? new MissingConnectionTokenError(source.variable) : new MissingCredentialsError();
}
