import * as pulumi from "@pulumi/pulumi";
import { ENV_NAME } from "./framework/settings";

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
    this.token = args.token === undefined ? undefined : pulumi.secret(args.token);
  }

  /** What a resource's `connection` input holds (see provider/framework/resourceConnection.ts). */
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
