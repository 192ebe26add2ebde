import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clientOf,
  connectionOf,
  MissingConnectionTokenError,
  withConnectionOrganization,
} from "../../provider/framework/connection";
import {
  Connections,
  ENV_KEYS,
  MissingCredentialsError,
  resolveConnection,
  setStackConfig,
  type TokenSource,
} from "../../provider/framework/settings";
import { UNKNOWN } from "../../provider/framework/unknown";
import { restoreEnvAfterEach } from "../support/cli";

/**
 * The one resolution of a connection's API URL and token, which resources (in the provider's process, with the
 * config `configure` was given) and lookups (in the program's, with the program's own config) share.
 */
const variables = [...Object.values(ENV_KEYS), "OTHER_TOKEN"];
restoreEnvAfterEach(...variables);
beforeEach(() => {
  for (const name of variables) delete process.env[name];
  setStackConfig({});
});
afterEach(() => setStackConfig({}));

/** The source of the missing token, thrown as the message, so that a test reads which one was missing. */
const missing = (source: TokenSource) => new Error(JSON.stringify(source));

describe("resolveConnection", () => {
  it("takes the connection's own token, then its tokenEnv, then the stack's; its URL, then the stack's", () => {
    process.env[ENV_KEYS.apiToken] = "stack-token";
    process.env[ENV_KEYS.apiUrl] = "https://env.example.com/v1";
    process.env.OTHER_TOKEN = " other-token ";
    expect(resolveConnection({ token: "own", apiUrl: "https://own.example.com/v1" }, missing)).toEqual({
      apiUrl: "https://own.example.com/v1",
      token: "own",
    });
    expect(resolveConnection({ tokenEnv: "OTHER_TOKEN" }, missing)).toEqual({
      apiUrl: "https://env.example.com/v1",
      token: "other-token",
    });
    expect(resolveConnection({}, missing)).toEqual({ apiUrl: "https://env.example.com/v1", token: "stack-token" });
    setStackConfig({ apiToken: "configured-token" });
    expect(resolveConnection(undefined, missing)).toEqual({
      apiUrl: "https://env.example.com/v1",
      token: "configured-token",
    });
  });

  it("reads stack config through the reader it is given, before the environment", () => {
    process.env[ENV_KEYS.apiToken] = "env-token";
    setStackConfig({ apiToken: "provider-config-token" });
    const programConfig: Record<string, string> = {
      apiUrl: "https://program.example.com/v1",
      apiToken: "program-token",
    };
    expect(resolveConnection(undefined, missing, (name) => programConfig[name])).toEqual({
      apiUrl: "https://program.example.com/v1",
      token: "program-token",
    });
    expect(resolveConnection(undefined, missing, () => undefined)).toEqual({
      apiUrl: "https://api.gitbook.com/v1",
      token: "env-token",
    });
  });

  it("says which source had no token: an empty given token, an unset or blank variable, no stack-wide token", () => {
    process.env.OTHER_TOKEN = "  ";
    expect(() => resolveConnection({ token: "" }, missing)).toThrow('{"from":"token"}');
    expect(() => resolveConnection({ tokenEnv: "OTHER_TOKEN" }, missing)).toThrow(
      '{"from":"tokenEnv","variable":"OTHER_TOKEN"}',
    );
    expect(() => resolveConnection({ apiUrl: "https://own.example.com/v1" }, missing)).toThrow('{"from":"stack"}');
  });
});

describe("a resource's connection", () => {
  it("gives a missing token its own error: the connection's unset variable, or the stack's settings", () => {
    const connections = new Connections();
    expect(() => clientOf(connections, undefined)).toThrow(MissingCredentialsError);
    expect(() => clientOf(connections, { tokenEnv: "OTHER_TOKEN" })).toThrow(MissingConnectionTokenError);
    expect(() => clientOf(connections, { tokenEnv: "OTHER_TOKEN" })).toThrow(/OTHER_TOKEN/);
    connections.close();
  });

  it("lends its organization only to a kind that takes organizationId and leaves it out", () => {
    const connection = { organizationId: "OrgOfConnection" };
    expect(withConnectionOrganization(["organizationId", "title"], { title: "T", connection })).toEqual({
      title: "T",
      connection,
      organizationId: "OrgOfConnection",
    });
    expect(withConnectionOrganization(["spaceId"], { spaceId: "s", connection })).toEqual({ spaceId: "s", connection });
    const declared = { organizationId: "Declared", connection };
    expect(withConnectionOrganization(["organizationId"], declared)).toBe(declared);
    expect(withConnectionOrganization(["organizationId"], { connection: {} })).toEqual({ connection: {} });
  });

  it("is none while absent, null, malformed or not known yet", () => {
    expect(connectionOf({})).toBeUndefined();
    expect(connectionOf({ connection: null })).toBeUndefined();
    expect(connectionOf({ connection: { apiUrl: UNKNOWN } })).toBeUndefined();
    expect(connectionOf({ connection: { tokenEnv: "not a name" } })).toBeUndefined();
    expect(connectionOf({ connection: { tokenEnv: "OTHER_TOKEN" } })).toEqual({ tokenEnv: "OTHER_TOKEN" });
  });
});
