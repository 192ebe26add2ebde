import * as grpc from "@grpc/grpc-js";
import * as analyzerrpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dynamicType, pluginType } from "../../provider/framework/typeTokens";
import { UNKNOWN } from "../../provider/framework/unknown";
import { docsPolicyPack } from "../../provider/policy";

/**
 * The pack as the engine talks to it: docsPolicyPack() serves the analyzer's gRPC service in this process (the SDK
 * prints its port), and the test calls Configure and Analyze as the engine does. One pack per process: the SDK serves
 * one, so this file is the only one that starts it.
 */
describe("the served pack", () => {
  let client: analyzerrpc.AnalyzerClient;

  beforeAll(async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    docsPolicyPack();
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    const port = String(log.mock.calls[0]![0]);
    log.mockRestore();
    client = new analyzerrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  afterAll(() => client?.close());

  const configure = (config: Record<string, Record<string, unknown>>) => {
    const request = new analyzerproto.ConfigureAnalyzerRequest();
    for (const [name, properties] of Object.entries(config)) {
      const entry = new analyzerproto.PolicyConfig();
      entry.setEnforcementlevel(analyzerproto.EnforcementLevel.MANDATORY);
      entry.setProperties(Struct.fromJavaScript(properties as never));
      request.getPolicyconfigMap().set(name, entry);
    }
    return new Promise<grpc.ServiceError | null>((resolve) => client.configure(request, (error) => resolve(error)));
  };

  const analyze = (type: string, name: string, properties: Record<string, unknown>) => {
    const request = new analyzerproto.AnalyzeRequest();
    request.setType(type);
    request.setName(name);
    request.setUrn(`urn:pulumi:dev::docs::${type}::${name}`);
    request.setProperties(Struct.fromJavaScript(properties as never));
    request.setOptions(new analyzerproto.AnalyzerResourceOptions());
    return new Promise<string[]>((resolve, reject) =>
      client.analyze(request, (error, response) =>
        error ? reject(error) : resolve(response!.getDiagnosticsList().map((d) => d.getMessage())),
      ),
    );
  };

  it("refuses a config naming an unknown rule or setting, with every problem in the error", async () => {
    const error = await configure({
      "docs-public-site-alowed": {},
      "docs-share-links-per-site": { maxPerSite: 3, maxLinks: 2 },
    });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain("docs-platform: the policy config is invalid:");
    expect(error?.details).toContain('"docs-public-site-alowed" is not a rule of this policy pack: did you mean');
    expect(error?.details).toContain('docs-share-links-per-site: "maxLinks" is not a setting of this rule');
  });

  it("takes a valid config, and its rules then judge both routes' resources with it, unknown values included", async () => {
    expect(await configure({ "docs-public-site-allowed": { allowedSites: ["Handbook"] } })).toBeNull();
    const open = { title: "Acme Docs", visibility: "public", published: true, organizationId: UNKNOWN };
    for (const type of [dynamicType("Site"), pluginType("Site")]) {
      expect(await analyze(type, "docs", open)).toEqual([
        expect.stringContaining('Site "docs", visibility: the site "Acme Docs" is published with visibility "public"'),
      ]);
      expect(await analyze(type, "handbook", { ...open, title: "Handbook" })).toEqual([]);
      expect(await analyze(type, "later", { ...open, visibility: UNKNOWN })).toEqual([]);
    }
    expect(await analyze("aws:s3/bucket:Bucket", "assets", { visibility: "public", published: true })).toEqual([]);
  });
});
