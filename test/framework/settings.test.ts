import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  apiTokenSource,
  apiUrlSetting,
  CONFIG_KEYS,
  defaultOrganizationId,
  ENV_KEYS,
  InvalidSettingError,
  logWait,
  preflightSetting,
  setStackConfig,
} from "../../provider/framework/settings";

/**
 * The settings other than the client's, as the provider process resolves them: stack config first, then the
 * environment, blank meaning unset; and what the messages about them name.
 */
const saved = Object.fromEntries(Object.values(ENV_KEYS).map((key) => [key, process.env[key]]));
beforeEach(() => {
  for (const key of Object.values(ENV_KEYS)) delete process.env[key];
  setStackConfig({});
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  setStackConfig({});
  vi.restoreAllMocks();
});

describe("the API URL and where it came from", () => {
  it("stack config, else the environment, else the default, each named", () => {
    expect(apiUrlSetting()).toEqual({
      url: "https://api.gitbook.com/v1",
      source: "the default (neither docs:apiUrl nor DOCS_API_URL is set)",
    });
    process.env[ENV_KEYS.apiUrl] = " https://env.example.com/v1 ";
    expect(apiUrlSetting()).toEqual({
      url: "https://env.example.com/v1",
      source: "the DOCS_API_URL environment variable",
    });
    setStackConfig({ apiUrl: "https://config.example.com/v1" });
    expect(apiUrlSetting()).toEqual({ url: "https://config.example.com/v1", source: "stack config docs:apiUrl" });
  });
});

describe("which token is used", () => {
  it("config wins over env; blank is unset", () => {
    expect(apiTokenSource()).toBeUndefined();
    process.env[ENV_KEYS.apiToken] = "  ";
    expect(apiTokenSource()).toBeUndefined();
    process.env[ENV_KEYS.apiToken] = "tok_env";
    expect(apiTokenSource()).toBe("env");
    setStackConfig({ apiToken: " " });
    expect(apiTokenSource()).toBe("env");
    setStackConfig({ apiToken: "tok_config" });
    expect(apiTokenSource()).toBe("config");
  });
});

describe("the default organization", () => {
  it("config wins over env, trimmed; blank is unset", () => {
    expect(defaultOrganizationId()).toBeUndefined();
    process.env[ENV_KEYS.organizationId] = " org_env ";
    expect(defaultOrganizationId()).toBe("org_env");
    setStackConfig({ organizationId: "" });
    expect(defaultOrganizationId()).toBe("org_env");
    setStackConfig({ organizationId: "org_config" });
    expect(defaultOrganizationId()).toBe("org_config");
  });

  it("setStackConfig keeps a copy: changing the object passed later changes nothing", () => {
    const config = { organizationId: "org_a" };
    setStackConfig(config);
    config.organizationId = "org_b";
    expect(defaultOrganizationId()).toBe("org_a");
  });
});

describe("preflight", () => {
  it("is off unless set", () => {
    expect(preflightSetting()).toBe(false);
    process.env[ENV_KEYS.preflight] = " ";
    expect(preflightSetting()).toBe(false);
  });

  it.each(["true", "1", "yes", "on", "TRUE", " Yes "])("%j turns it on", (value) => {
    process.env[ENV_KEYS.preflight] = value;
    expect(preflightSetting()).toBe(true);
  });

  it.each(["false", "0", "no", "off", "Off"])("%j keeps it off", (value) => {
    setStackConfig({ preflight: value });
    process.env[ENV_KEYS.preflight] = "true";
    expect(preflightSetting()).toBe(false);
  });

  it("a typo is refused, naming the setting it came from", () => {
    process.env[ENV_KEYS.preflight] = "ture";
    expect(() => preflightSetting()).toThrow(InvalidSettingError);
    expect(() => preflightSetting()).toThrow(
      'DOCS_PREFLIGHT must be true or false, not "ture"; unset it to use the default.',
    );
    setStackConfig({ preflight: "enabled" });
    expect(() => preflightSetting()).toThrow(`${CONFIG_KEYS.preflight} must be true or false, not "enabled"`);
  });
});

describe("a long wait's line", () => {
  it("rounds the wait up to whole seconds, and names no limit it does not know", () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue(undefined);
    logWait({ requests: 3, longestMs: 5_001, reasons: ["limit-reached"], endedAt: "2026-11-23T12:00:06.000Z" });
    expect(info.mock.calls.map((call) => call[0])).toEqual([
      "3 requests waited up to 6 s for the rate limit (its budget was spent), until 2026-11-23T12:00:06.000Z.",
    ]);
  });

  it("goes to stderr when Pulumi's log cannot take it", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    vi.spyOn(pulumi.log, "info").mockRejectedValue(new Error("no engine"));
    logWait({ requests: 1, longestMs: 60_000, reasons: ["too-many-requests"], endedAt: "2026-11-23T12:01:00.000Z" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([
      "1 request waited up to 60 s for the rate limit (the API answered 429 Too Many Requests), until " +
        "2026-11-23T12:01:00.000Z.\n",
    ]);
  });
});
