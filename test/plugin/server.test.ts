import * as grpc from "@grpc/grpc-js";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { WaitEvent } from "../../provider/client";
import { logLine } from "../../provider/framework/log";
import { notice } from "../../provider/framework/notices";
import { flushWaits, reportWait, setStackConfig } from "../../provider/framework/settings";
import { FUNCTIONS } from "../../provider/functions";
import { EngineLog } from "../../provider/plugin/engineLog";
import { asSecret, isSecret, revealed } from "../../provider/plugin/secrets";
import { serve } from "../../provider/plugin/server";
import { definitions } from "../../provider/registry";
import { currentOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

/**
 * The plugin's gRPC service, driven as the engine drives it (a ResourceProviderClient over a local port) against the
 * in-process emulator, with a fake engine that records the Log RPCs. Each gap of `@pulumi/pulumi/provider`'s
 * `main()` in 3.259 that the service closes has a test here.
 */
const fixture = useEmulator();

const logged: { severity: number; message: string; urn: string }[] = [];
const LOG_LATENCY_MS = 60;
let engine: grpc.Server;
let plugin: grpc.Server;
let client: providerRpc.ResourceProviderClient;
let restoreSinks: () => void;
let engineLog: EngineLog;
let enginePort: number;
const SCHEMA = '{"name":"docs"}';

beforeAll(async () => {
  engine = new grpc.Server();
  engine.addService(engineRpc.EngineService, {
    // A line counts as logged when the engine answers it, which may take a while: a call must answer after its lines.
    log: (call: grpc.ServerUnaryCall<LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
      setTimeout(() => {
        logged.push({
          severity: call.request.getSeverity(),
          message: call.request.getMessage(),
          urn: call.request.getUrn(),
        });
        callback(null, new Empty());
      }, LOG_LATENCY_MS);
    },
  } as grpc.UntypedServiceImplementation);
  enginePort = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  engineLog = new EngineLog();
  engineLog.attach(`127.0.0.1:${enginePort}`);
  restoreSinks = engineLog.install();
  const served = await serve({
    definitions,
    functions: FUNCTIONS,
    operation: currentOperation,
    version: "9.9.9",
    schema: () => SCHEMA,
    log: engineLog,
  });
  plugin = served.server;
  client = new providerRpc.ResourceProviderClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  restoreSinks();
  client.close();
  plugin.forceShutdown();
  engine.forceShutdown();
});

beforeEach(() => {
  logged.length = 0;
  setStackConfig({});
});

/** One unary call of the client, as the engine makes it. */
function rpc<Response>(method: keyof providerRpc.ResourceProviderClient, request: unknown): Promise<Response> {
  const call = client[method] as unknown as (
    request: unknown,
    callback: (error: grpc.ServiceError | null, response: Response) => void,
  ) => unknown;
  return new Promise((resolve, reject) =>
    call.call(client, request, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

const urnOf = (kind: string, name = "r") => `urn:pulumi:dev::proj::docs:index:${kind}::${name}`;
const struct = (value: Record<string, unknown>) => Struct.fromJavaScript(value as never);

async function configure(args: Record<string, unknown>) {
  const request = new proto.ConfigureRequest()
    .setArgs(struct(args))
    .setUrn("urn:pulumi:dev::proj::pulumi:providers:docs::default");
  return rpc<proto.ConfigureResponse>("configure", request);
}

async function check(kind: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const request = new proto.CheckRequest()
    .setUrn(urnOf(kind))
    .setType(`docs:index:${kind}`)
    .setOlds(struct(olds))
    .setNews(struct(news));
  return rpc<proto.CheckResponse>("check", request);
}

async function create(kind: string, properties: Record<string, unknown>) {
  const request = new proto.CreateRequest()
    .setUrn(urnOf(kind))
    .setType(`docs:index:${kind}`)
    .setProperties(struct(properties));
  const response = await rpc<proto.CreateResponse>("create", request);
  return { id: response.getId(), props: response.getProperties()?.toJavaScript() as Record<string, unknown> };
}

/** The detailed diff: each property's kind of change. */
function kindsOf(response: proto.DiffResponse): Record<string, proto.PropertyDiff.Kind> {
  const kinds: Record<string, proto.PropertyDiff.Kind> = {};
  response.getDetaileddiffMap().forEach((diff, key) => {
    kinds[key] = diff.getKind();
  });
  return kinds;
}

/** A Struct's values, or none. */
const plain = (value: Struct | undefined) => (value?.toJavaScript() ?? {}) as Record<string, unknown>;

const emulatorConfig = () => ({ apiUrl: fixture.emulator.url, apiToken: asSecret(fixture.emulator.token) });

describe("configure", () => {
  it("takes the API settings from the provider's config, which main() drops, and asks for plain values", async () => {
    const saved = process.env.DOCS_API_TOKEN;
    process.env.DOCS_API_TOKEN = "not-the-token";
    try {
      const response = await configure({ ...emulatorConfig(), organizationId: fixture.org(), version: "0.1.0" });
      expect(response.getAcceptsecrets()).toBe(false);
      expect(response.getAcceptresources()).toBe(false);
      const checked = await check("Collection", { title: "Guides" });
      // The default organization came from the config, the token from the config (the environment's is wrong).
      const inputs = checked.getInputs()?.toJavaScript() as Record<string, unknown>;
      expect(inputs).toMatchObject({ organizationId: fixture.org(), title: "Guides" });
      const { id } = await create("Collection", inputs);
      expect(fixture.emulator.store.collections.get(id)?.title).toBe("Guides");
    } finally {
      process.env.DOCS_API_TOKEN = saved;
    }
  });
});

async function invoke(name: string, args: Record<string, unknown>) {
  const request = new proto.InvokeRequest().setTok(`docs:index:${name}`).setArgs(struct(args));
  const response = await rpc<proto.InvokeResponse>("invoke", request);
  return plain(response.getReturn());
}

describe("invoke", () => {
  it("runs the lookup with the provider's configured settings, one listing", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    const spaceId = await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Found by title" });
    fixture.emulator.clearRequests();
    expect(await invoke("getSpace", { title: "Found by title" })).toEqual({
      id: spaceId,
      title: "Found by title",
      organizationId: fixture.org(),
      collectionId: null,
      visibility: "private",
    });
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}/spaces`]);
    const member = await invoke("getOrganizationMember", { email: "ADA@example.com" });
    expect(member).toMatchObject({ id: fixture.emulator.userIds[0], email: "ada@example.com" });
  });

  it("fails naming the title and listing the candidates when nothing matches", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    await expect(invoke("getSpace", { title: "No such space" })).rejects.toThrow(
      `getSpace: no space titled "No such space" in organization "${fixture.org()}"; it has "API Reference" (`,
    );
  });

  it("fails naming what a function needs when called with neither criteria nor id, before any request", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    fixture.emulator.clearRequests();
    await expect(invoke("getSpace", {})).rejects.toThrow("getSpace: title: required (The space's title, exactly.).");
    await expect(invoke("getSpace", { title: 3 })).rejects.toThrow("getSpace: title: Invalid input: expected string");
    await expect(invoke("getTeam", { title: "x", titel: "y" })).rejects.toThrow(
      "getTeam: titel: not an argument of getTeam; it takes title, organizationId.",
    );
    await expect(invoke("getCollection", {})).rejects.toThrow(
      "getCollection: give either title or path (titles joined by `/`), not both or neither.",
    );
    expect(fixture.calls()).toEqual([]);
  });

  it("takes a null argument as left out, as an SDK sends an unset one", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    const found = await invoke("getSpace", { title: "API Reference", collectionId: null, organizationId: null });
    expect(found.id).toBe(fixture.emulator.spaceIds[1]);
  });

  it("finds an integration of the catalogue, and names the catalogue for an unknown name", async () => {
    await configure(emulatorConfig());
    expect(await invoke("getIntegration", { name: "googleanalytics" })).toEqual({
      name: "googleanalytics",
      title: "Google Analytics",
      description: "Receive GitBook traffic insights directly in your Google Analytics dashboard.",
      target: "site",
      categories: ["analytics"],
      scopes: ["site:script:inject", "site:script:cookies"],
      configurations: {
        account: { keys: {}, componentId: null },
        site: {
          keys: {
            tracking_id: {
              type: "string",
              title: "Tracking ID",
              description: null,
              allowedValues: null,
              required: true,
            },
          },
          componentId: null,
        },
        space: null,
      },
    });
    await expect(invoke("getIntegration", { name: "google-analytics" })).rejects.toThrow(
      'getIntegration: no integration named "google-analytics" in the catalogue; it lists "Analytics Pulse" (analytics-pulse), "Google Analytics" (googleanalytics), ',
    );
  });

  it("names the functions it serves for an unknown token", async () => {
    await expect(invoke("getNothing", {})).rejects.toThrow(
      "unknown function docs:index:getNothing: the docs plugin serves docs:index:getSpace, ",
    );
  });
});

describe("an explicit provider", () => {
  it("names its inputs, not the stack config, in what it tells the user", async () => {
    const saved = process.env.DOCS_API_TOKEN;
    delete process.env.DOCS_API_TOKEN;
    try {
      const request = new proto.ConfigureRequest()
        .setArgs(struct({ apiUrl: fixture.emulator.url, organizationId: fixture.org() }))
        .setName("eu")
        .setUrn("urn:pulumi:dev::proj::pulumi:providers:docs::eu");
      await rpc<proto.ConfigureResponse>("configure", request);
      await expect(create("Collection", { organizationId: fixture.org(), title: "Guides" })).rejects.toThrow(
        'Check the API token: `apiToken: <token>` in the inputs of provider "eu"',
      );
    } finally {
      process.env.DOCS_API_TOKEN = saved;
    }
  });
});

describe("checkConfig", () => {
  const checkConfig = (news: Record<string, unknown>, name = "default_0_1_0") =>
    rpc<proto.CheckResponse>(
      "checkConfig",
      new proto.CheckRequest().setUrn(`urn:pulumi:dev::proj::pulumi:providers:docs::${name}`).setNews(struct(news)),
    );

  it("stores the token as a secret even when it was set in plain text", async () => {
    const response = await checkConfig({ apiToken: "plain-token", apiUrl: "http://x", version: "0.1.0" });
    const inputs = response.getInputs()?.toJavaScript() as Record<string, unknown>;
    expect(isSecret(inputs.apiToken)).toBe(true);
    expect(inputs.apiUrl).toBe("http://x");
    expect(inputs.version).toBe("0.1.0");
    expect(response.getFailuresList()).toEqual([]);
  });

  it("rejects a key no setting has, naming it, the settings and the fix", async () => {
    const response = await checkConfig({ apiTokn: "x" });
    const [failure] = response.getFailuresList();
    expect(failure?.getProperty()).toBe("apiTokn");
    expect(failure?.getReason()).toContain("docs:apiTokn is not a setting of the docs provider");
    expect(failure?.getReason()).toContain("docs:apiToken");
    expect(failure?.getReason()).toContain("pulumi config rm docs:apiTokn");
  });

  it("names an explicit provider's inputs rather than stack config keys", async () => {
    const response = await checkConfig({ organisationId: "x" }, "second");
    expect(response.getFailuresList()[0]?.getReason()).toBe(
      'organisationId is not a setting of provider "second"; its settings are apiUrl, apiToken, organizationId, preflight.',
    );
  });
});

describe("secrets", () => {
  it("marks a kind's secret outputs itself, since the engine marks only what the program gave as secret", async () => {
    await configure(emulatorConfig());
    const siteId = await fixture.makeSite({ visibility: "share-link" });
    const { props } = await create("SiteShareLink", { organizationId: fixture.org(), siteId, name: "Partners" });
    expect(isSecret(props.url)).toBe(true);
    expect(isSecret(props.name)).toBe(false);
  });
});

describe("diff", () => {
  const diff = (kind: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    rpc<proto.DiffResponse>(
      "diff",
      new proto.DiffRequest()
        .setUrn(urnOf(kind))
        .setType(`docs:index:${kind}`)
        .setId("c1")
        .setOlds(struct(olds))
        .setNews(struct(news)),
    );
  const state = { organizationId: "org", title: "Guides", defaultLevel: "inherit", __declared: ["title"] };

  it("sends a detailed diff (main() sends none), update or replace per property", async () => {
    const link = { organizationId: "org", siteId: "s1", name: "Partners", active: true, __declared: ["name"] };
    const response = await diff("SiteShareLink", link, { organizationId: "org", siteId: "s2", name: "Customers" });
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getHasdetaileddiff()).toBe(true);
    expect(kindsOf(response)).toEqual({
      siteId: proto.PropertyDiff.Kind.UPDATE_REPLACE,
      name: proto.PropertyDiff.Kind.UPDATE,
    });
    expect(response.getReplacesList()).toEqual(["siteId"]);
    const added = await diff("Collection", state, { organizationId: "org", title: "Guides", description: "New" });
    expect(kindsOf(added)).toEqual({ description: proto.PropertyDiff.Kind.ADD });
  });

  it("answers no change when the declared inputs equal the state", async () => {
    const response = await diff("Collection", state, { organizationId: "org", title: "Guides" });
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(response.getDetaileddiffMap().getLength()).toBe(0);
  });

  it("removes the serialized provider of a resource moved here from the dynamic route, with no replace", async () => {
    const response = await diff(
      "Collection",
      { ...state, __provider: "exports.handler = …" },
      { organizationId: "org", title: "Guides" },
    );
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getReplacesList()).toEqual([]);
    expect(kindsOf(response)).toEqual({ __provider: proto.PropertyDiff.Kind.DELETE });
  });
});

describe("update", () => {
  it("writes a migrated resource's outputs without the serialized provider, and sends no request", async () => {
    await configure(emulatorConfig());
    const { id, props } = await create("Collection", { organizationId: fixture.org(), title: "Guides" });
    fixture.emulator.clearRequests();
    const olds = { ...props, __provider: "exports.handler = …" };
    const request = new proto.UpdateRequest()
      .setUrn(urnOf("Collection"))
      .setType("docs:index:Collection")
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct({ organizationId: fixture.org(), title: "Guides" }));
    const response = await rpc<proto.UpdateResponse>("update", request);
    const outs = response.getProperties()?.toJavaScript() as Record<string, unknown>;
    expect(outs.__provider).toBeUndefined();
    expect(outs.title).toBe("Guides");
    expect(fixture.writes()).toEqual([]);
  });
});

describe("read", () => {
  const read = (kind: string, id: string, properties?: Record<string, unknown>) => {
    const request = new proto.ReadRequest().setUrn(urnOf(kind)).setType(`docs:index:${kind}`).setId(id);
    if (properties !== undefined) request.setProperties(struct(properties));
    return rpc<proto.ReadResponse>("read", request);
  };

  it("imports with the id alone, where main() crashes on the absent properties", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    const siteId = await fixture.makeSite({ visibility: "share-link" });
    const linkId = await fixture.apiCreate(`/orgs/${fixture.org()}/sites/${siteId}/share-links`, { name: "Partners" });
    const response = await read("SiteShareLink", `${siteId}/${linkId}`);
    expect(response.getId()).toBe(linkId);
    const props = response.getProperties()?.toJavaScript() as Record<string, unknown>;
    const inputs = response.getInputs()?.toJavaScript() as Record<string, unknown>;
    expect(inputs).toMatchObject({ organizationId: fixture.org(), siteId, name: "Partners" });
    // No program asks for the URL to be secret on import: the plugin does.
    expect(isSecret(props.url)).toBe(true);
  });

  it("marks a sensitive input secret on import, and leaves its secrecy to the engine on a refresh", async () => {
    await configure({ ...emulatorConfig(), organizationId: fixture.org() });
    const sourceText = JSON.stringify({ openapi: "3.0.0", info: { title: "Pets", version: "1" }, paths: {} });
    const { id, props } = await create("OpenApiSpec", { organizationId: fixture.org(), slug: "pets", sourceText });
    // The program gave it in plain text: the engine keeps it so in the inputs and marks again what was secret. It
    // sends the state without secrets (acceptSecrets is false).
    const refreshed = await read("OpenApiSpec", id, revealed(props) as Record<string, unknown>);
    expect(plain(refreshed.getInputs()).sourceText).toBe(sourceText);
    expect(isSecret(plain(refreshed.getProperties()).sourceText)).toBe(true);
    // An import has no program to say so: the plugin marks it.
    const imported = await read("OpenApiSpec", id);
    expect(isSecret(plain(imported.getInputs()).sourceText)).toBe(true);
  });

  it("answers an empty id for an object gone since the last refresh", async () => {
    await configure(emulatorConfig());
    const { id, props } = await create("Collection", { organizationId: fixture.org(), title: "Gone soon" });
    expect((await fixture.api("DELETE", `/collections/${id}`)).status).toBeLessThan(300);
    const gone = await read("Collection", id, props);
    expect(gone.getId()).toBe("");
    expect(gone.getProperties()).toBeUndefined();
  });
});

describe("more of each call", () => {
  it("answers a check that fails with its failures and no inputs", async () => {
    await configure(emulatorConfig());
    const response = await check("Collection", { organizationId: fixture.org(), title: "x".repeat(300) });
    expect(response.getInputs()).toBeUndefined();
    expect(response.getFailuresList().map((f) => f.getProperty())).toEqual(["title"]);
  });

  it("finds the kind in the URN when the engine sends no type, under a parent too", async () => {
    await configure(emulatorConfig());
    const request = new proto.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::my:component$docs:index:Collection::c")
      .setOlds(struct({}))
      .setNews(struct({ organizationId: fixture.org(), title: "Guides" }));
    const response = await rpc<proto.CheckResponse>("check", request);
    expect(response.getInputs()?.toJavaScript()).toMatchObject({ title: "Guides" });
  });

  it("skips null settings, and takes an explicit provider's name from its URN", async () => {
    const saved = process.env.DOCS_API_TOKEN;
    delete process.env.DOCS_API_TOKEN;
    try {
      const request = new proto.ConfigureRequest()
        .setArgs(struct({ apiUrl: fixture.emulator.url, organizationId: fixture.org(), preflight: null }))
        .setUrn("urn:pulumi:dev::proj::pulumi:providers:docs::eu");
      await rpc<proto.ConfigureResponse>("configure", request);
      // preflight null is unset (not the string "null", which would fail as a typo).
      expect((await check("Collection", { organizationId: fixture.org(), title: "Guides" })).getFailuresList()).toEqual(
        [],
      );
      await expect(create("Collection", { organizationId: fixture.org(), title: "Guides" })).rejects.toThrow(
        'in the inputs of provider "eu"',
      );
    } finally {
      process.env.DOCS_API_TOKEN = saved;
    }
  });

  it("adds no token to a provider's config that has none", async () => {
    const response = await rpc<proto.CheckResponse>(
      "checkConfig",
      new proto.CheckRequest()
        .setUrn("urn:pulumi:dev::proj::pulumi:providers:docs::default")
        .setNews(struct({ apiUrl: "http://x" })),
    );
    expect(response.getInputs()?.toJavaScript()).toEqual({ apiUrl: "http://x" });
  });

  it("deletes before it replaces where the kind says so, and lists the changed properties", async () => {
    const olds = { organizationId: "org", siteId: "s1", schema: { type: "object" }, __declared: ["schema"] };
    const response = await rpc<proto.DiffResponse>(
      "diff",
      new proto.DiffRequest()
        .setUrn(urnOf("SiteAdaptiveSchema"))
        .setType("docs:index:SiteAdaptiveSchema")
        .setId("s1")
        .setOlds(struct(olds))
        .setNews(struct({ organizationId: "org", siteId: "s2", schema: { type: "object" } })),
    );
    expect(response.getDeletebeforereplace()).toBe(true);
    expect(response.getDiffsList()).toEqual(["siteId"]);
    const inPlace = await rpc<proto.DiffResponse>(
      "diff",
      new proto.DiffRequest()
        .setUrn(urnOf("SiteShareLink"))
        .setType("docs:index:SiteShareLink")
        .setId("l1")
        .setOlds(struct({ organizationId: "org", siteId: "s1", name: "A", __declared: ["name"] }))
        .setNews(struct({ organizationId: "org", siteId: "s1", name: "B" })),
    );
    expect(inPlace.getDeletebeforereplace()).toBe(false);
  });

  it("deletes the object", async () => {
    await configure(emulatorConfig());
    const { id, props } = await create("Collection", { organizationId: fixture.org(), title: "Short-lived" });
    await rpc<Empty>(
      "delete",
      new proto.DeleteRequest()
        .setUrn(urnOf("Collection"))
        .setType("docs:index:Collection")
        .setId(id)
        .setProperties(struct(props)),
    );
    expect(fixture.emulator.store.collections.get(id)).toBeUndefined();
  });
});

describe("errors", () => {
  it("names an unknown type token", async () => {
    await expect(check("Nope", {})).rejects.toThrow("unknown resource type docs:index:Nope");
  });

  it("answers a failed create with the lifecycle's message", async () => {
    await configure({ apiUrl: fixture.emulator.url, apiToken: asSecret("wrong-token") });
    await expect(create("Collection", { organizationId: fixture.org(), title: "Guides" })).rejects.toThrow(
      /Collection/,
    );
  });
});

describe("the engine's log", () => {
  it("carries a notice written during a call under that call's resource, which stderr would hide", async () => {
    await configure(emulatorConfig());
    const urn = urnOf("OrganizationSettings", "settings");
    // OrganizationSettings takes over the organization on create and says so in a notice.
    const request = new proto.CreateRequest()
      .setUrn(urn)
      .setType("docs:index:OrganizationSettings")
      .setProperties(struct({ organizationId: fixture.org(), aiSearch: true }));
    await rpc<proto.CreateResponse>("create", request);
    const lines = logged.filter((line) => line.urn === urn);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((line) => line.message).join("\n")).toContain("OrganizationSettings");
  });

  it("sends lines outside any call under the stack, each at its severity", async () => {
    notice("warning", "a warning notice");
    notice("info", "an info notice");
    logLine("warn", "a warn line");
    logLine("info", "an info line");
    reportWait({
      method: "GET",
      path: "/v1/orgs/o",
      reason: "limit-reached",
      limit: 3,
      waitMs: 6500,
      resetAt: "2099-11-26T00:00:00.000Z",
    } as WaitEvent);
    // Told once the period is over, or now.
    flushWaits();
    await engineLog.flushed();
    expect(logged).toEqual([
      { severity: LogSeverity.WARNING, message: "a warning notice", urn: "" },
      { severity: LogSeverity.INFO, message: "an info notice", urn: "" },
      { severity: LogSeverity.WARNING, message: "a warn line", urn: "" },
      { severity: LogSeverity.INFO, message: "an info line", urn: "" },
      {
        severity: LogSeverity.INFO,
        message:
          "1 request waited up to 7 s for the rate limit (its budget of 3 requests was spent), until " +
          "2099-11-26T00:00:00.000Z.",
        urn: "",
      },
    ]);
  });

  it("writes to stderr where no engine listens or the engine does not answer", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const detached = new EngineLog();
      await detached.send("warning", "no engine");
      detached.attach("127.0.0.1:1");
      await detached.send("info", "engine gone");
      // Attached to a live engine, a line reaches it and nothing is written; once closed, stderr again.
      detached.attach(`127.0.0.1:${enginePort}`);
      await detached.send("info", "to the engine");
      detached.close();
      await detached.send("info", "closed");
    } finally {
      spy.mockRestore();
    }
    expect(written).toEqual(["warning: no engine\n", "info: engine gone\n", "info: closed\n"]);
    expect(logged.map((line) => line.message)).toEqual(["to the engine"]);
  });

  it("sends the closing notices on the first Cancel only", async () => {
    await configure(emulatorConfig());
    // An adoption by importId is told once the operation is over.
    const id = await fixture.makeCollection("Existing");
    await create("Collection", { organizationId: fixture.org(), title: "Existing", importId: id });
    const closing = currentOperation().closingNotices();
    expect(closing.length).toBeGreaterThan(0);
    logged.length = 0;
    await rpc<Empty>("cancel", new Empty());
    await rpc<Empty>("cancel", new Empty());
    expect(logged.map((line) => line.message)).toEqual(closing.map((n) => n.message));
    expect(logged.every((line) => line.urn === "")).toBe(true);
  });
});

describe("plugin info and schema", () => {
  it("answers the package version and the schema text", async () => {
    const info = await rpc<PluginInfo>("getPluginInfo", new Empty());
    expect(info.getVersion()).toBe("9.9.9");
    const schema = await rpc<proto.GetSchemaResponse>("getSchema", new proto.GetSchemaRequest());
    expect(schema.getSchema()).toBe(SCHEMA);
  });
});
