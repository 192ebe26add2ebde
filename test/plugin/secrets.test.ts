import { describe, expect, it } from "vitest";
import { isDefaultProvider, providerConfigFailures } from "../../provider/plugin/config";
import { asSecret, isSecret, revealed, withSecrets } from "../../provider/plugin/secrets";

describe("the wire form of secrets", () => {
  it("tells a secret from any other value", () => {
    expect(isSecret(asSecret("x"))).toBe(true);
    for (const value of [null, undefined, "1b47061264138c4ac30d75fd1eb44270", 3, {}, { value: "x" }, ["x"]]) {
      expect(isSecret(value), JSON.stringify(value)).toBe(false);
    }
    // The signature's value must match, not only its key.
    expect(isSecret({ "4dabf18193072939515e22adb298388d": "other", value: "x" })).toBe(false);
  });

  it("reveals secrets at any depth, inside lists, objects and other secrets", () => {
    const wrapped = {
      token: asSecret("t"),
      nested: { list: [asSecret(1), "plain", { deep: asSecret(asSecret(true)) }], nothing: null },
      count: 2,
    };
    expect(revealed(wrapped)).toEqual({
      token: "t",
      nested: { list: [1, "plain", { deep: true }], nothing: null },
      count: 2,
    });
    expect(revealed(null)).toBeNull();
    expect(revealed("s")).toBe("s");
  });

  it("wraps the named properties that hold a value, and leaves absent and null ones alone", () => {
    const props = { url: "https://x", key: null, other: "o" };
    const out = withSecrets(props, ["url", "key", "missing"]);
    expect(out).toEqual({ url: asSecret("https://x"), key: null, other: "o" });
    expect("missing" in out).toBe(false);
    expect(props.url).toBe("https://x");
  });
});

describe("the provider's config", () => {
  it("tells the engine's default providers from explicit ones", () => {
    for (const name of ["default", "default_0_1_0", "default_10_20_30", "default_1_2_3_alpha_1"]) {
      expect(isDefaultProvider(name), name).toBe(true);
    }
    for (const name of ["defaults", "my_default", "default_eu", "default_1_2", "eu", "xdefault_1_2_3"]) {
      expect(isDefaultProvider(name), name).toBe(false);
    }
  });

  it("names the stack config keys, their environment variables and the fix for an unknown key", () => {
    expect(providerConfigFailures({ apiToken: "t", version: "0.1.0", colour: "x" }, "default_0_1_0")).toEqual([
      {
        property: "colour",
        reason:
          "docs:colour is not a setting of the docs provider; the settings are docs:apiUrl, docs:apiToken, " +
          "docs:organizationId, docs:preflight (environment: DOCS_API_URL, DOCS_API_TOKEN, DOCS_ORGANIZATION_ID, " +
          "DOCS_PREFLIGHT). Remove it with `pulumi config rm docs:colour`.",
      },
    ]);
    expect(providerConfigFailures({ apiUrl: "u", organizationId: "o", preflight: "true" }, "default")).toEqual([]);
  });
});
