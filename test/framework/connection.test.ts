import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_RETRY_POLICY, InsecureApiUrlError, TimeoutError, type WaitEvent } from "../../provider/client";
import {
  Connections,
  ENV_KEYS,
  InvalidSettingError,
  logWait,
  MissingCredentialsError,
  setStackConfig,
  setWaitReporter,
} from "../../provider/framework/connection";
import { apiError, type Stub, startStub, uniqueToken } from "../client/stub";

/** Every setting of the connection, from stack config and environment, as the provider process resolves them. */
const saved = Object.fromEntries(Object.values(ENV_KEYS).map((key) => [key, process.env[key]]));
const stubs: Stub[] = [];
/** The clients of one operation. */
let connections: Connections;
beforeEach(() => {
  for (const key of Object.values(ENV_KEYS)) delete process.env[key];
  setStackConfig({});
  connections = new Connections();
});
afterEach(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  setStackConfig({});
  setWaitReporter(undefined);
  connections.close();
  vi.restoreAllMocks();
  while (stubs.length > 0) await stubs.pop()?.close();
});

async function stub(handler: Parameters<typeof startStub>[0] = (_req, res) => void res.end("{}")): Promise<Stub> {
  const started = await startStub(handler);
  stubs.push(started);
  return started;
}

describe("where the API is and which token", () => {
  it("stack config wins over the environment, for the URL and the token", async () => {
    const configured = await stub();
    const fromEnv = await stub();
    const [configToken, envToken] = [uniqueToken(), uniqueToken()];
    process.env[ENV_KEYS.apiUrl] = fromEnv.url;
    process.env[ENV_KEYS.apiToken] = envToken;
    setStackConfig({ apiUrl: configured.url, apiToken: configToken });
    await connections.apiClient().get("/orgs");
    expect(configured.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${configToken}`]);
    expect(fromEnv.requests).toEqual([]);
  });

  it("blank stack config falls back to the environment", async () => {
    const fromEnv = await stub();
    const envToken = uniqueToken();
    process.env[ENV_KEYS.apiUrl] = `  ${fromEnv.url}  `;
    process.env[ENV_KEYS.apiToken] = envToken;
    setStackConfig({ apiUrl: " ", apiToken: "" });
    await connections.apiClient().get("/orgs");
    expect(fromEnv.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${envToken}`]);
  });

  it("defaults to the public API, and needs a token", () => {
    expect(() => connections.apiClient()).toThrow(MissingCredentialsError);
    expect(() => connections.apiClient()).toThrow(
      "No API token: set it with `pulumi config set --secret docs:apiToken <token>` or the DOCS_API_TOKEN environment variable.",
    );
    process.env[ENV_KEYS.apiToken] = uniqueToken();
    expect(connections.apiClient().baseUrl.href).toBe("https://api.gitbook.com/v1");
  });

  it("refuses plain http to another machine, naming the URL and both settings", () => {
    process.env[ENV_KEYS.apiToken] = uniqueToken();
    process.env[ENV_KEYS.apiUrl] = "http://docs.example.com/v1";
    expect(() => connections.apiClient()).toThrow(InsecureApiUrlError);
    expect(() => connections.apiClient()).toThrow(
      'The API URL "http://docs.example.com/v1" is plain http to a host other than this machine: the token would ' +
        "travel unencrypted. Use an https:// URL (plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1) " +
        "in DOCS_API_URL or the docs:apiUrl stack config.",
    );
  });

  it("reuses one client per URL and token", async () => {
    const [a, b] = [await stub(), await stub()];
    const [one, two] = [uniqueToken(), uniqueToken()];
    const clientFor = (url: string, token: string) => {
      setStackConfig({ apiUrl: url, apiToken: token });
      return connections.apiClient();
    };
    const first = clientFor(a.url, one);
    expect(clientFor(a.url, one)).toBe(first);
    expect(clientFor(a.url, two)).not.toBe(first);
    expect(clientFor(b.url, one)).not.toBe(first);
    expect(clientFor(b.url, one)).toBe(clientFor(b.url, one));
  });
});

describe("timeouts, attempts and the rate-limit ceiling from the environment", () => {
  const client = () => {
    setStackConfig({ apiUrl: "https://api.gitbook.com/v1", apiToken: uniqueToken() });
    return connections.apiClient();
  };

  it("unset or blank means the client's defaults", () => {
    expect([client().timeoutMs, client().policy.maxAttempts, client().maxWaitMs]).toEqual([
      30_000,
      DEFAULT_RETRY_POLICY.maxAttempts,
      120_000,
    ]);
    process.env[ENV_KEYS.timeoutMs] = "";
    process.env[ENV_KEYS.maxAttempts] = "  ";
    process.env[ENV_KEYS.maxWaitSeconds] = "";
    expect([client().timeoutMs, client().policy.maxAttempts, client().maxWaitMs]).toEqual([30_000, 5, 120_000]);
  });

  it("whole numbers are taken, spaces around them ignored", () => {
    process.env[ENV_KEYS.timeoutMs] = "2500";
    process.env[ENV_KEYS.maxAttempts] = " 2 ";
    process.env[ENV_KEYS.maxWaitSeconds] = "0";
    expect([client().timeoutMs, client().policy.maxAttempts, client().maxWaitMs]).toEqual([2_500, 2, 0]);
  });

  it.each([
    [ENV_KEYS.timeoutMs, "abc", "a whole number of milliseconds, 1 or more"],
    [ENV_KEYS.timeoutMs, "0", "a whole number of milliseconds, 1 or more"],
    [ENV_KEYS.timeoutMs, "30s", "a whole number of milliseconds, 1 or more"],
    [ENV_KEYS.maxAttempts, "-1", "a whole number of attempts, 1 or more"],
    [ENV_KEYS.maxAttempts, "2.5", "a whole number of attempts, 1 or more"],
    [ENV_KEYS.maxWaitSeconds, "two minutes", "a whole number of seconds, 0 or more"],
  ])("%s=%j is refused, not ignored", (key, value, expected) => {
    process.env[key] = value;
    expect(() => client()).toThrow(InvalidSettingError);
    expect(() => client()).toThrow(`${key} must be ${expected}, not "${value}"; unset it to use the default.`);
  });

  it("the settings reach the requests: attempts and timeout", async () => {
    const busy = await stub((_req, res) => apiError(res, 503, "busy"));
    const silent = await stub(() => {});
    process.env[ENV_KEYS.maxAttempts] = "2";
    process.env[ENV_KEYS.timeoutMs] = "300";
    setStackConfig({ apiUrl: busy.url, apiToken: uniqueToken() });
    await expect(connections.apiClient().get("/orgs")).rejects.toThrow(
      "failed with 503 Service Unavailable: busy (after 2 attempts)",
    );
    expect(busy.requests).toHaveLength(2);
    setStackConfig({ apiUrl: silent.url, apiToken: uniqueToken() });
    const error = await connections
      .apiClient()
      .get("/orgs")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(String(error)).toContain(`no answer from ${silent.host} within 300 ms (after 2 attempts)`);
  });
});

describe("long rate-limit waits are told to the user", () => {
  const event: WaitEvent = {
    method: "POST",
    path: "/v1/orgs/o/sites",
    waitMs: 42_300,
    reason: "too-many-requests",
    resetAt: "2026-11-23T12:00:43.000Z",
    limit: 60,
  };

  it("as one Pulumi log line naming the call, the wait and the reset", () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue(undefined);
    logWait(event);
    logWait({ ...event, reason: "limit-reached", waitMs: 5_000 });
    expect(info.mock.calls.map((call) => call[0])).toEqual([
      "POST /v1/orgs/o/sites: the API answered 429 Too Many Requests; waiting 43 s, until 2026-11-23T12:00:43.000Z.",
      "POST /v1/orgs/o/sites: the API rate limit of 60 requests is spent; waiting 5 s, until 2026-11-23T12:00:43.000Z.",
    ]);
  });

  it("through the reporter the provider's clients are built with", () => {
    const reported: WaitEvent[] = [];
    setWaitReporter((e) => reported.push(e));
    setStackConfig({ apiUrl: "https://api.gitbook.com/v1", apiToken: uniqueToken() });
    const onWait = connections.apiClient().onWait;
    onWait?.(event);
    expect(reported).toEqual([event]);
  });
});
