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
  type WaitPeriod,
  WaitPeriods,
} from "../../provider/framework/settings";
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
  const period: WaitPeriod = {
    requests: 1,
    longestMs: 42_300,
    reasons: ["too-many-requests"],
    endedAt: "2026-11-23T12:00:43.000Z",
  };

  it("as one Pulumi log line per period: how many requests, the longest wait, why and until when", () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue(undefined);
    logWait(period);
    logWait({ ...period, requests: 422, longestMs: 5_000, reasons: ["limit-reached"], limit: 60 });
    logWait({ ...period, requests: 2, reasons: ["limit-reached", "too-many-requests"] });
    expect(info.mock.calls.map((call) => call[0])).toEqual([
      "1 request waited up to 43 s for the rate limit (the API answered 429 Too Many Requests), until 2026-11-23T12:00:43.000Z.",
      "422 requests waited up to 5 s for the rate limit (its budget of 60 requests was spent), until 2026-11-23T12:00:43.000Z.",
      "2 requests waited up to 43 s for the rate limit (its budget was spent, and the API answered 429 Too Many Requests), " +
        "until 2026-11-23T12:00:43.000Z.",
    ]);
  });

  it("through the reporter the provider's clients are built with, once the period is over", () => {
    vi.useFakeTimers();
    try {
      const reported: WaitPeriod[] = [];
      setWaitReporter((p) => reported.push(p));
      setStackConfig({ apiUrl: "https://api.gitbook.com/v1", apiToken: uniqueToken() });
      const onWait = connections.apiClient().onWait;
      const resetAt = new Date(Date.now() + 42_300).toISOString();
      onWait?.({ ...event, resetAt });
      onWait?.({ ...event, waitMs: 40_000, reason: "limit-reached", resetAt });
      vi.advanceTimersByTime(42_299);
      expect(reported).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(reported).toEqual([
        {
          requests: 2,
          longestMs: 42_300,
          reasons: ["limit-reached", "too-many-requests"],
          limit: 60,
          endedAt: resetAt,
        },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("WaitPeriods", () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const wait = (waitMs: number, resetMs: number): WaitEvent => ({
    method: "GET",
    path: "/v1/orgs/o",
    waitMs,
    reason: "limit-reached",
    resetAt: at(resetMs),
  });

  it("a period lasts until its last wait is over; a wait that begins after it starts another", () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const told: WaitPeriod[] = [];
      const periods = new WaitPeriods((p) => told.push(p));
      periods.add(wait(6_000, 6_000));
      vi.advanceTimersByTime(1_000);
      // Begins within the period and ends after it: the period is extended.
      periods.add(wait(7_000, 8_000));
      vi.advanceTimersByTime(6_999);
      expect(told).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(told).toEqual([{ requests: 2, longestMs: 7_000, reasons: ["limit-reached"], endedAt: at(8_000) }]);
      periods.add(wait(5_000, 13_000));
      periods.flush();
      periods.flush();
      expect(told).toHaveLength(2);
      expect(told[1]).toEqual({ requests: 1, longestMs: 5_000, reasons: ["limit-reached"], endedAt: at(13_000) });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("WaitPeriods, at the edges", () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const wait = (endMs: number, extra: Partial<WaitEvent> = {}): WaitEvent => ({
    method: "GET",
    path: "/v1/orgs/o",
    waitMs: endMs - Date.now(),
    reason: "limit-reached",
    resetAt: at(endMs),
    ...extra,
  });
  const withClock = (test: (told: WaitPeriod[], periods: WaitPeriods) => void) => () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const told: WaitPeriod[] = [];
      test(told, new WaitPeriods((p) => told.push(p)));
    } finally {
      vi.useRealTimers();
    }
  };

  it(
    "a wait ending before the period does not shorten it",
    withClock((told, periods) => {
      periods.add(wait(8_000));
      periods.add(wait(6_000));
      vi.advanceTimersByTime(7_999);
      expect(told).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(told).toHaveLength(1);
    }),
  );

  it(
    "a period told by hand leaves no timer to tell the next one early",
    withClock((told, periods) => {
      periods.add(wait(8_000));
      periods.flush();
      vi.advanceTimersByTime(1_000);
      periods.add(wait(20_000));
      vi.advanceTimersByTime(7_000);
      expect(told).toHaveLength(1);
      vi.advanceTimersByTime(12_000);
      expect(told).toHaveLength(2);
    }),
  );

  it(
    "the limit of any wait that knew it, and no limit key when none did",
    withClock((told, periods) => {
      periods.add(wait(6_000));
      periods.add(wait(6_000, { limit: 60 }));
      periods.flush();
      periods.add(wait(7_000));
      periods.flush();
      expect(told[0]?.limit).toBe(60);
      expect(told[1]).toStrictEqual({ requests: 1, longestMs: 7_000, reasons: ["limit-reached"], endedAt: at(7_000) });
    }),
  );

  it(
    "a wait beyond what setTimeout takes is not told at once",
    withClock((told, periods) => {
      periods.add(wait(30 * 24 * 3_600_000));
      vi.advanceTimersByTime(60_000);
      expect(told).toEqual([]);
    }),
  );
});
