import { afterEach, describe, expect, it } from "vitest";
import { withoutStackTrace } from "../../provider/framework/explain";
import { EXPLAINED_STACK, isHostEcho } from "../../provider/framework/hostEcho";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/settings";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();
const collections = () => lifecycle("Collection");
const inputs = () => ({ organizationId: fixture.emulator.organizationId, title: "Docs", parentId: null });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );

/** Runs `body` with the token and URL settings replaced, restoring the fixture's afterwards. */
async function withSettings<T>(env: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const saved = { url: process.env[ENV_KEYS.apiUrl], token: process.env[ENV_KEYS.apiToken] };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return await body();
  } finally {
    process.env[ENV_KEYS.apiUrl] = saved.url;
    process.env[ENV_KEYS.apiToken] = saved.token;
    setStackConfig({});
  }
}

afterEach(() => setStackConfig({}));

/** Credential and connection errors say what is true for the operation, in one line each. */
describe("credential errors that tell the truth", () => {
  it("a missing token during read and delete explains the saved configuration and gives both fixes", async () => {
    await withSettings({ [ENV_KEYS.apiToken]: undefined }, async () => {
      for (const operation of ["read", "delete"] as const) {
        const error =
          operation === "read"
            ? await failure(collections().read("abc", inputs()))
            : await failure(collections().delete("abc", inputs()));
        expect(error.message).toBe(
          `Collection "abc" ${operation}: No API token. Refresh, read and destroy use the provider configuration ` +
            "saved in the state by the last `pulumi up`, so a token set in docs:apiToken or changed since then is not used " +
            "yet. Fix: export DOCS_API_TOKEN=<token> and run again, or run `pulumi up` once.",
        );
      }
    });
  });

  it("a missing token during create names both settings, as config set now is used", async () => {
    await withSettings({ [ENV_KEYS.apiToken]: undefined }, async () => {
      const error = await failure(collections().create(inputs()));
      expect(error.message).toMatch(
        /^Collection create: No API token\. Check the API token: `pulumi config set --secret docs:apiToken <token>` or the DOCS_API_TOKEN/,
      );
      expect(error.message).not.toContain("last `pulumi up`");
    });
  });

  it("a token rejected during refresh says which saved setting it was", async () => {
    fixture.emulator.injectFault({ method: "GET", count: 1, status: 401 });
    const fromEnv = await failure(collections().read("abc", inputs()));
    expect(fromEnv.message).toMatch(
      /read: GET \S+ failed with 401 Unauthorized.*The rejected token is DOCS_API_TOKEN: export a valid one\.$/,
    );

    await withSettings({}, async () => {
      setStackConfig({ apiToken: "an-old-token" });
      const fromConfig = await failure(collections().read("abc", inputs()));
      expect(fromConfig.message).toMatch(
        /401 Unauthorized.*The rejected token is that saved docs:apiToken: run `pulumi up` once/,
      );
    });
  });

  it("a connection that fails names the base URL and the setting it came from", async () => {
    await withSettings({ [ENV_KEYS.apiUrl]: "http://127.0.0.1:9/v1", DOCS_API_MAX_ATTEMPTS: "1" }, async () => {
      const error = await failure(collections().read("abc", inputs()));
      expect(error.message).toMatch(
        /failed: connection .*The API URL http:\/\/127\.0\.0\.1:9\/v1 comes from the DOCS_API_URL environment variable: check it and the network\.$/,
      );
      setStackConfig({ apiUrl: "http://127.0.0.1:9/v2" });
      const configured = await failure(collections().read("abc", inputs()));
      expect(configured.message).toContain("The API URL http://127.0.0.1:9/v2 comes from stack config docs:apiUrl");
    });
    process.env.DOCS_API_MAX_ATTEMPTS = "3";
  });

  it("errors the provider raised print as one line where the provider host prints error and stack", async () => {
    fixture.emulator.injectFault({ method: "GET", count: 1, status: 403 });
    const error = await failure(collections().read("abc", inputs()));
    const printed = `${error}: ${error.stack}`;
    expect(printed.split("\n")).toHaveLength(1);
    expect(printed).toBe(`ForbiddenError: ${error.message}: ${EXPLAINED_STACK}`);
    expect(isHostEcho([printed])).toBe(true);
  });

  it("a defect keeps its stack trace", () => {
    const defect = withoutStackTrace(new TypeError("x is not a function"));
    expect(`${defect}: ${defect.stack}`.split("\n").length).toBeGreaterThan(1);
    expect(isHostEcho([`${defect}: ${defect.stack}`])).toBe(false);
  });
});
