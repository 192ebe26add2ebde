import { afterEach, describe, expect, it } from "vitest";
import {
  apiUrlSetting,
  MissingCredentialsError,
  preflightSetting,
  setStackConfig,
  settingFix,
  settingName,
} from "../../provider/framework/settings";

/**
 * Messages name the settings of the route in use: the stack config keys for the stack's own settings (the dynamic
 * route, the plugin's default provider), the inputs of the `pulumi:providers:docs` resource for an explicit one.
 */
afterEach(() => setStackConfig({}));

describe("the words for a setting", () => {
  it("are the stack config keys for the stack's own settings", () => {
    setStackConfig({ apiUrl: "http://api.example" });
    expect(settingName("preflight")).toBe("docs:preflight");
    expect(settingFix("apiToken", "<token>")).toBe("`pulumi config set --secret docs:apiToken <token>`");
    expect(settingFix("organizationId", "<id>")).toBe("`pulumi config set docs:organizationId <id>`");
    expect(apiUrlSetting().source).toBe("stack config docs:apiUrl");
    expect(new MissingCredentialsError().message).toBe(
      "No API token: set it with `pulumi config set --secret docs:apiToken <token>` or the DOCS_API_TOKEN environment variable.",
    );
  });

  it("are an explicit provider's inputs for its settings", () => {
    setStackConfig({ apiUrl: "http://eu.example", preflight: "maybe", provider: "eu" });
    expect(settingName("preflight")).toBe('the preflight input of provider "eu"');
    expect(settingFix("apiToken", "<token>")).toBe('`apiToken: <token>` in the inputs of provider "eu"');
    expect(apiUrlSetting().source).toBe('the apiUrl input of provider "eu"');
    expect(new MissingCredentialsError().message).toBe(
      'No API token: set it with `apiToken: <token>` in the inputs of provider "eu" or the DOCS_API_TOKEN ' +
        "environment variable.",
    );
    expect(() => preflightSetting()).toThrow('the preflight input of provider "eu" must be true or false, not "maybe"');
  });
});
