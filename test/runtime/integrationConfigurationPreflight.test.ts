import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiIntegration } from "../../provider/client";
import type { PreflightApi } from "../../provider/framework/kind";
import { ENV_KEYS } from "../../provider/framework/settings";
import { UNKNOWN } from "../../provider/framework/unknown";
import { checkConfigurationKeys } from "../../provider/resources/integrationCommon";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

/**
 * Preflight of an installation's `configuration` and `secrets` against the integration's schema for its level
 * (`getIntegrationByName`'s `configurations.account`, `.site`, `.space`): unknown keys (with the close match), missing
 * required keys, values of the wrong type or outside the allowed ones; secret values never in a message; the
 * integration read once per operation; no request at all with preflight off.
 */
const fixture = useEmulator();
const SECRET = "pulse-secret-5c1e77";
const reasons = (result: { failures?: { property: string; reason: string }[] }) =>
  (result.failures ?? []).map((failure) => `${failure.property}: ${failure.reason}`);
const integrationReads = () => fixture.calls().filter((call) => /^GET \/v1\/integrations\/[^/]+$/.test(call));
const PULSE = 'integration "analytics-pulse" (Analytics Pulse)';
const PULSE_KEYS =
  '"trackingId" (a string, required), "anonymizeIp" (a boolean), "sampleRate" (a number), "region" (one of "eu", "us")';
const ORGANIZATION_LEVEL = "organization-level (`configurations.account`)";

describe("an installation's configuration keys at preview (preflight)", () => {
  beforeEach(() => {
    process.env[ENV_KEYS.preflight] = "true";
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    startOperation();
  });
  afterEach(() => {
    delete process.env[ENV_KEYS.preflight];
    vi.restoreAllMocks();
  });

  /** One program's installation of analytics-pulse: a program declares one per organization (uniqueBy). */
  const pulse = (declared: Record<string, unknown>) =>
    lifecycle("IntegrationInstallation", startOperation()).check(
      {},
      {
        organizationId: fixture.org(),
        integrationName: "analytics-pulse",
        ...declared,
      },
    );

  it("passes keys the schema declares, with values of their types", async () => {
    const result = await pulse({
      configuration: { trackingId: "G-1", anonymizeIp: true, sampleRate: 0.5, region: "eu" },
    });
    expect(reasons(result)).toEqual([]);
  });

  it("fails an unknown key, naming the close match, what the integration accepts and the fix", async () => {
    expect(reasons(await pulse({ configuration: { trackingId: "G-1", anonymiseIp: true } }))).toEqual([
      `configuration: IntegrationInstallation.configuration: preflight: ${PULSE} has no ${ORGANIZATION_LEVEL} key ` +
        `"anonymiseIp"; it accepts ${PULSE_KEYS}. Did you mean "anonymizeIp"? Fix the key's name, or remove it ` +
        '(`getIntegration({ name: "analytics-pulse" })` lists its keys).',
    ]);
    // Far from every key: no guess.
    expect(reasons(await pulse({ configuration: { trackingId: "G-1", colourScheme: "dark" } }))).toEqual([
      `configuration: IntegrationInstallation.configuration: preflight: ${PULSE} has no ${ORGANIZATION_LEVEL} key ` +
        `"colourScheme"; it accepts ${PULSE_KEYS}. Remove it ` +
        '(`getIntegration({ name: "analytics-pulse" })` lists its keys).',
    ]);
  });

  it("fails a required key neither configuration nor secrets declares", async () => {
    expect(reasons(await pulse({ configuration: { region: "us" } }))).toEqual([
      `configuration: IntegrationInstallation.configuration: preflight: ${PULSE} requires the ${ORGANIZATION_LEVEL} ` +
        'key "trackingId", which neither `configuration` nor `secrets` declares, and the configuration `up` sends ' +
        "must hold it. Declare it in `configuration` (in `secrets` if it is a credential).",
    ]);
    // Declared in secrets, it is declared.
    expect(reasons(await pulse({ configuration: { region: "us" }, secrets: { trackingId: SECRET } }))).toEqual([]);
  });

  it("fails a value of the wrong type or outside the allowed values, never quoting it", async () => {
    const result = await pulse({ configuration: { trackingId: "G-1", sampleRate: "half", region: "mars" } });
    expect(reasons(result)).toEqual([
      `configuration: IntegrationInstallation.configuration: preflight: ${PULSE}: its ${ORGANIZATION_LEVEL} key ` +
        '"sampleRate" takes a number, and the value given is a string: give a number.',
      `configuration: IntegrationInstallation.configuration: preflight: ${PULSE}: its ${ORGANIZATION_LEVEL} key ` +
        '"region" takes one of "eu", "us", and the value given is none of them: give one of them.',
    ]);
    expect(reasons(result).join("\n")).not.toMatch(/half|mars/);
  });

  it("never puts a secret's value in a message: an unknown key, a wrong type, a wrong value", async () => {
    const result = await pulse({
      configuration: { trackingId: "G-1" },
      secrets: { trackingSecret: SECRET, sampleRate: SECRET, region: SECRET },
    });
    const messages = reasons(result);
    expect(messages.map((message) => message.slice(0, message.indexOf(" preflight:")))).toEqual([
      "secrets: IntegrationInstallation.secrets:",
      "secrets: IntegrationInstallation.secrets:",
      "secrets: IntegrationInstallation.secrets:",
    ]);
    expect(messages[0]).toContain('key "trackingSecret"; it accepts');
    expect(messages[1]).toContain('key "sampleRate" takes a number, and the value given is a string');
    expect(messages[2]).toContain('key "region" takes one of "eu", "us"');
    expect(messages.join("\n")).not.toContain(SECRET);
  });

  it("checks each level against its own schema: site and space installations", async () => {
    const installation = await fixture.apiCreate("/integrations/ticket-sync/installations", {
      organization: fixture.org(),
    });
    const siteId = await fixture.makeSite();
    const base = { organizationId: fixture.org(), installationId: installation, integrationName: "ticket-sync" };
    const onSite = await lifecycle("IntegrationSiteInstallation").check(
      {},
      {
        ...base,
        siteId,
        configuration: { projekt: "DOCS" },
      },
    );
    expect(reasons(onSite)).toEqual([
      'configuration: IntegrationSiteInstallation.configuration: preflight: integration "ticket-sync" (Ticket Sync) ' +
        'has no site-level (`configurations.site`) key "projekt"; it accepts "project" (a string). Did you mean ' +
        '"project"? Fix the key\'s name, or remove it (`getIntegration({ name: "ticket-sync" })` lists its keys).',
    ]);
    const onSpace = await lifecycle("IntegrationSpaceInstallation").check(
      {},
      {
        ...base,
        spaceId: fixture.space(0),
        configuration: { project: "DOCS", labels: "some" },
        secrets: { apiToken: SECRET },
      },
    );
    expect(reasons(onSpace)).toEqual([
      'configuration: IntegrationSpaceInstallation.configuration: preflight: integration "ticket-sync" (Ticket Sync): ' +
        'its space-level (`configurations.space`) key "labels" takes one of "none", "all", and the value given is ' +
        "none of them: give one of them.",
    ]);
    // The organization-level keys are not the site's: `workspace` is unknown on a site.
    const workspaceOnSite = await lifecycle("IntegrationSiteInstallation", startOperation()).check(
      {},
      {
        ...base,
        siteId,
        configuration: { workspace: "acme" },
      },
    );
    expect(reasons(workspaceOnSite)[0]).toContain('has no site-level (`configurations.site`) key "workspace"');
    // An integration with no space schema takes no key there.
    const analytics = await fixture.apiCreate("/integrations/googleanalytics/installations", {
      organization: fixture.org(),
    });
    const gaOnSpace = await lifecycle("IntegrationSpaceInstallation").check(
      {},
      {
        organizationId: fixture.org(),
        installationId: analytics,
        integrationName: "googleanalytics",
        spaceId: fixture.space(0),
        configuration: { tracking_id: "G-1" },
      },
    );
    expect(reasons(gaOnSpace)[0]).toContain(
      'has no space-level (`configurations.space`) key "tracking_id"; it accepts no keys at this level. Remove it',
    );
  });

  it("reads each integration once per operation, whatever the number of its installations, and not for none", async () => {
    const installationId = await fixture.apiCreate("/integrations/ticket-sync/installations", {
      organization: fixture.org(),
    });
    const sites = [await fixture.makeSite(), await fixture.makeSite()];
    const organizationId = fixture.org();
    const base = { organizationId, installationId, integrationName: "ticket-sync" };
    const program = async () => [
      await lifecycle("IntegrationInstallation").check(
        {},
        {
          organizationId,
          integrationName: "ticket-sync",
          configuration: { workspace: "acme" },
          secrets: { apiKey: SECRET },
        },
      ),
      ...(await Promise.all(
        sites.map(async (siteId) =>
          lifecycle("IntegrationSiteInstallation").check({}, { ...base, siteId, configuration: { project: "DOCS" } }),
        ),
      )),
      await lifecycle("IntegrationSpaceInstallation").check(
        {},
        {
          ...base,
          spaceId: fixture.space(0),
          configuration: { project: "DOCS", labels: "none" },
        },
      ),
      await lifecycle("IntegrationSpaceInstallation").check({}, { ...base, spaceId: fixture.space(1), secrets: {} }),
    ];
    fixture.emulator.clearRequests();
    expect((await program()).flatMap(reasons)).toEqual([]);
    expect(integrationReads()).toEqual(["GET /v1/integrations/ticket-sync"]);
    // The next operation (the `up` after the preview) reads it again: the catalogue may have changed since.
    startOperation();
    expect((await program()).flatMap(reasons)).toEqual([]);
    expect(integrationReads()).toEqual(["GET /v1/integrations/ticket-sync", "GET /v1/integrations/ticket-sync"]);
    // A program that declares no key asks nothing.
    startOperation();
    fixture.emulator.clearRequests();
    const bare = await lifecycle("IntegrationSiteInstallation").check({}, { ...base, siteId: sites[0] });
    expect(reasons(bare)).toEqual([]);
    expect(integrationReads()).toEqual([]);
  });

  it("fails an integration the catalogue does not have on integrationName, once per operation", async () => {
    const installationId = await fixture.apiCreate("/integrations/analytics-pulse/installations", {
      organization: fixture.org(),
    });
    const siteId = await fixture.makeSite();
    startOperation();
    fixture.emulator.clearRequests();
    const declared = { organizationId: fixture.org(), integrationName: "analytics-puls", configuration: { x: "1" } };
    const fix =
      'preflight: the catalogue has no integration named "analytics-puls". Give its name as in ' +
      "`https://app.gitbook.com/integrations/<name>`, or find it with `getIntegration({ name })`.";
    expect(reasons(await lifecycle("IntegrationInstallation").check({}, declared))).toEqual([
      `integrationName: IntegrationInstallation.integrationName: ${fix}`,
    ]);
    const onSite = await lifecycle("IntegrationSiteInstallation").check({}, { ...declared, installationId, siteId });
    expect(reasons(onSite)).toEqual([`integrationName: IntegrationSiteInstallation.integrationName: ${fix}`]);
    expect(integrationReads()).toEqual(["GET /v1/integrations/analytics-puls"]);
  });

  it("leaves values and names not known yet to `up`", async () => {
    fixture.emulator.clearRequests();
    expect(reasons(await pulse({ configuration: { trackingId: UNKNOWN, sampleRate: UNKNOWN } }))).toEqual([]);
    // Its keys are known, so a misspelt one is still caught.
    expect(reasons(await pulse({ configuration: { trackingId: UNKNOWN, sampleRat: UNKNOWN } }))[0]).toContain(
      'key "sampleRat"; it accepts',
    );
    // A whole field not known yet: its keys are not either, so no required key is called missing.
    expect(reasons(await pulse({ configuration: { region: "eu" }, secrets: UNKNOWN }))).toEqual([]);
    expect(reasons(await pulse({ configuration: UNKNOWN }))).toEqual([]);
    const unknownName = await lifecycle("IntegrationInstallation", startOperation()).check(
      {},
      {
        organizationId: fixture.org(),
        integrationName: UNKNOWN,
        configuration: { anything: "x" },
      },
    );
    expect(reasons(unknownName)).toEqual([]);
    // One read per operation (each `pulse` is one), none for the unknown name or field.
    expect(integrationReads()).toEqual([
      "GET /v1/integrations/analytics-pulse",
      "GET /v1/integrations/analytics-pulse",
      "GET /v1/integrations/analytics-pulse",
    ]);
  });
});

describe("an installation's configuration keys without preflight", () => {
  it("are `up`'s to check: check makes no request", async () => {
    delete process.env[ENV_KEYS.preflight];
    startOperation();
    fixture.emulator.clearRequests();
    const result = await lifecycle("IntegrationInstallation").check(
      {},
      {
        organizationId: fixture.org(),
        integrationName: "analytics-pulse",
        configuration: { anonymiseIp: true },
      },
    );
    expect(reasons(result)).toEqual([]);
    expect(fixture.calls()).toEqual([]);
  });
});

describe("checkConfigurationKeys", () => {
  /** A catalogue of one integration, as getIntegrationByName answers it, behind the preflight cache's interface. */
  const apiWith = (integration: ApiIntegration): PreflightApi => ({
    client: undefined as never,
    exists: () => Promise.reject(new Error("not asked")),
    object: <T>() => Promise.resolve(integration as T),
  });
  const integration = (configurations: ApiIntegration["configurations"]): ApiIntegration => ({
    name: "helpdesk",
    title: "Helpdesk",
    target: "all",
    categories: [],
    scopes: [],
    configurations,
  });

  it("checks nothing for a level the integration configures with a component of its own", async () => {
    const api = apiWith(integration({ site: { componentId: "configure" } }));
    const inputs = { integrationName: "helpdesk", configuration: { anything: "x" } };
    expect(await checkConfigurationKeys("IntegrationSiteInstallation", "site", api, inputs)).toEqual([]);
  });

  it("asks nothing when both fields are declared empty, though the level requires a key", async () => {
    const load = vi.fn(() =>
      Promise.resolve(integration({ account: { properties: { team: { type: "string" } }, required: ["team"] } })),
    );
    const api: PreflightApi = { ...apiWith(integration(undefined)), object: load as PreflightApi["object"] };
    const inputs = { integrationName: "helpdesk", configuration: {}, secrets: {} };
    expect(await checkConfigurationKeys("IntegrationInstallation", "account", api, inputs)).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });

  it("lets through a failure to read the integration other than its absence", async () => {
    const api: PreflightApi = {
      ...apiWith(integration(undefined)),
      object: () => Promise.reject(new Error("socket hang up")),
    };
    const inputs = { integrationName: "helpdesk", configuration: { team: "docs" } };
    await expect(checkConfigurationKeys("IntegrationInstallation", "account", api, inputs)).rejects.toThrow(
      "socket hang up",
    );
  });

  it("takes no key from an integration with no configurations, or a level with no properties", async () => {
    const inputs = { integrationName: "helpdesk", configuration: { team: "docs" } };
    const noKeys =
      'IntegrationInstallation.configuration: preflight: integration "helpdesk" (Helpdesk) has no organization-level ' +
      '(`configurations.account`) key "team"; it accepts no keys at this level. Remove it ' +
      '(`getIntegration({ name: "helpdesk" })` lists its keys).';
    for (const configurations of [undefined, { account: {} }, { account: { required: [] } }]) {
      expect(
        await checkConfigurationKeys(
          "IntegrationInstallation",
          "account",
          apiWith(integration(configurations)),
          inputs,
        ),
      ).toEqual([{ property: "configuration", reason: noKeys }]);
    }
  });

  it("checks the listed keys of a level that also has a component", async () => {
    const api = apiWith(integration({ site: { componentId: "configure", properties: { team: { type: "string" } } } }));
    const inputs = { integrationName: "helpdesk", configuration: { tem: "docs" } };
    expect(await checkConfigurationKeys("IntegrationSiteInstallation", "site", api, inputs)).toEqual([
      {
        property: "configuration",
        reason:
          'IntegrationSiteInstallation.configuration: preflight: integration "helpdesk" (Helpdesk) has no site-level ' +
          '(`configurations.site`) key "tem"; it accepts "team" (a string). Did you mean "team"? Fix the key\'s name, ' +
          'or remove it (`getIntegration({ name: "helpdesk" })` lists its keys).',
      },
    ]);
  });

  it("names each type a value should have: a string, a number, a boolean", async () => {
    const api = apiWith(
      integration({
        account: {
          properties: { team: { type: "string" }, limit: { type: "number" }, notify: { type: "boolean" } },
        },
      }),
    );
    const inputs = { integrationName: "helpdesk", configuration: { team: 7, limit: "7", notify: "yes" } };
    const reasons = (await checkConfigurationKeys("IntegrationInstallation", "account", api, inputs)).map((failure) =>
      failure.reason.slice(failure.reason.indexOf('key "')),
    );
    expect(reasons).toEqual([
      'key "team" takes a string, and the value given is a number: give a string.',
      'key "limit" takes a number, and the value given is a string: give a number.',
      'key "notify" takes a boolean, and the value given is a string: give a boolean.',
    ]);
  });

  it("refuses a button key: an action in the app, not a value", async () => {
    const api = apiWith(
      integration({
        account: {
          properties: { connect: { type: "button" }, team: { type: "string", title: "Team" } },
        },
      }),
    );
    const inputs = { integrationName: "helpdesk", configuration: { connect: "yes" } };
    expect(await checkConfigurationKeys("IntegrationInstallation", "account", api, inputs)).toEqual([
      {
        property: "configuration",
        reason:
          'IntegrationInstallation.configuration: preflight: integration "helpdesk" (Helpdesk): its organization-level ' +
          '(`configurations.account`) key "connect" is a button in the app, not a value: remove it.',
      },
    ]);
    // Nor is it among the keys an unknown key is told the integration accepts.
    const misspelt = { integrationName: "helpdesk", configuration: { tem: "docs" } };
    expect((await checkConfigurationKeys("IntegrationInstallation", "account", api, misspelt))[0]?.reason).toContain(
      'key "tem"; it accepts "team" (a string). Did you mean "team"?',
    );
  });
});
