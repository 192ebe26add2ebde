import { afterAll, beforeAll, beforeEach } from "vitest";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import { recordExchange } from "./contract";

/**
 * The one way tests start an emulator: every exchange is validated against the official OpenAPI document
 * (test/support/contract.ts); a caller's own `onExchange` still sees every exchange.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const own = options.onExchange;
  return startEmulator({
    ...options,
    onExchange: (exchange) => {
      recordExchange(exchange);
      own?.(exchange);
    },
  });
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface EmulatorFixture {
  emulator: RunningEmulator;
  /** A direct call to the API, bypassing the provider: how tests make out-of-band changes. */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
}

/**
 * One emulator per test file, reset before every test. The provider's runtime reads the same URL and token from the
 * environment, as it would in a Pulumi provider process.
 */
export function useEmulator(): EmulatorFixture {
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startTestEmulator({ port: 0, token: "emulator-test-token" });
    process.env.DOCS_API_URL = fixture.emulator.url;
    process.env.DOCS_API_TOKEN = fixture.emulator.token;
    process.env.DOCS_API_MAX_ATTEMPTS = "3";
    fixture.api = async (method, path, body) => {
      const response = await fetch(`${fixture.emulator.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${fixture.emulator.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
  });
  beforeEach(async () => {
    fixture.emulator.reset();
    fixture.emulator.clearRequests();
    // Loaded here rather than at the top so that emulator-only tests (which use startTestEmulator) do not load the provider.
    (await import("../../provider/runtime")).resetCaches();
  });
  afterAll(async () => {
    await fixture.emulator?.close();
  });
  return fixture;
}
