import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HttpClient } from "../client";
import { describeIssue } from "./issues";
import { apiId, type Props } from "./kind";
import { type Connections, ENV_NAME, MissingCredentialsError, resolveConnection, type TokenSource } from "./settings";
import { containsUnknown } from "./unknown";

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
export function connectionFailures(kind: string, value: unknown): pulumi.dynamic.CheckFailure[] {
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
