import { afterAll, beforeAll, beforeEach } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { resetCaches } from "../../provider/runtime";

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
    fixture.emulator = await startEmulator({ port: 0, token: "emulator-test-token" });
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
  beforeEach(() => {
    fixture.emulator.reset();
    fixture.emulator.clearRequests();
    resetCaches();
  });
  afterAll(async () => {
    await fixture.emulator?.close();
  });
  return fixture;
}
