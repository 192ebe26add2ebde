import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import type { DiffResult } from "../../provider/framework/lifecycleResults";
import type { Operation } from "../../provider/framework/operation";
import { EngineLog } from "../../provider/plugin/engineLog";
import { ProviderService } from "../../provider/plugin/server";
import { definitions } from "../../provider/registry";

/**
 * The plugin's Diff translates the Lifecycle's diff (provider/framework/lifecycleResults.ts) and computes none of its
 * own: driven over a stand-in lifecycle whose answer no comparison of the request's olds and news would give, the
 * response says exactly what the stand-in said. (test/plugin/server.test.ts drives Diff over the real lifecycles.)
 */
function serviceAnswering(result: DiffResult) {
  const received: [string, Props, Props][] = [];
  const lifecycle = {
    diff: async (id: string, olds: Props, news: Props) => {
      received.push([id, olds, news]);
      return result;
    },
  };
  const service = new ProviderService({
    definitions,
    operation: () => ({ lifecycle: () => lifecycle }) as unknown as Operation,
    version: "0.0.0",
    functions: [],
    schema: () => "{}",
    log: new EngineLog(),
  });
  const diff = (olds: Props, news: Props) =>
    new Promise<proto.DiffResponse>((resolve, reject) => {
      const request = new proto.DiffRequest()
        .setUrn("urn:pulumi:dev::proj::docs:index:Collection::c")
        .setType("docs:index:Collection")
        .setId("c1")
        .setOlds(Struct.fromJavaScript(olds as never))
        .setNews(Struct.fromJavaScript(news as never));
      const handler = service.implementation().diff as unknown as (
        call: { request: proto.DiffRequest },
        callback: (error: unknown, response?: proto.DiffResponse) => void,
      ) => void;
      handler({ request }, (error, response) => (error ? reject(error) : resolve(response as proto.DiffResponse)));
    });
  return { diff, received };
}

function kindsOf(response: proto.DiffResponse): Record<string, proto.PropertyDiff.Kind> {
  const kinds: Record<string, proto.PropertyDiff.Kind> = {};
  response.getDetaileddiffMap().forEach((diff, key) => {
    kinds[key] = diff.getKind();
  });
  return kinds;
}

const Kind = proto.PropertyDiff.Kind;
const same = { organizationId: "o", title: "Guides" };

describe("the plugin's Diff", () => {
  it("sends each property's change as the Lifecycle computed it, in its order", async () => {
    const { diff } = serviceAnswering({
      changes: true,
      replaces: ["organizationId", "parentId"],
      deleteBeforeReplace: true,
      detailedDiff: {
        title: { kind: "update", replace: false },
        organizationId: { kind: "update", replace: true },
        description: { kind: "add", replace: false },
        parentId: { kind: "add", replace: true },
      },
    });
    // The olds and news are equal: any diff the server computed itself would be empty.
    const response = await diff(same, same);
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getHasdetaileddiff()).toBe(true);
    expect(response.getDiffsList()).toEqual(["title", "organizationId", "description", "parentId"]);
    expect(kindsOf(response)).toEqual({
      title: Kind.UPDATE,
      organizationId: Kind.UPDATE_REPLACE,
      description: Kind.ADD,
      parentId: Kind.ADD_REPLACE,
    });
    expect(response.getReplacesList()).toEqual(["organizationId", "parentId"]);
    expect(response.getDeletebeforereplace()).toBe(true);
  });

  it("answers no change where the Lifecycle finds none, however the olds and news differ", async () => {
    const { diff } = serviceAnswering({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
    const response = await diff(same, { ...same, title: "Renamed" });
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(response.getDiffsList()).toEqual([]);
    expect(response.getDetaileddiffMap().getLength()).toBe(0);
    expect(response.getDeletebeforereplace()).toBe(false);
  });

  it("sends a change no property shows (a new connection) as a change with an empty detailed diff", async () => {
    const { diff } = serviceAnswering({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
    const response = await diff(same, same);
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getDetaileddiffMap().getLength()).toBe(0);
  });

  it("sends a delete, replacing or not, in the engine's terms", async () => {
    const { diff } = serviceAnswering({
      changes: true,
      replaces: ["siteId"],
      deleteBeforeReplace: false,
      detailedDiff: { note: { kind: "delete", replace: false }, siteId: { kind: "delete", replace: true } },
    });
    expect(kindsOf(await diff(same, same))).toEqual({ note: Kind.DELETE, siteId: Kind.DELETE_REPLACE });
  });

  it("hands the Lifecycle a migrated resource's state without the dynamic route's provider, and removes that", async () => {
    const { diff, received } = serviceAnswering({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {},
    });
    const response = await diff({ ...same, __provider: "exports.handler = …" }, same);
    expect(received).toEqual([["c1", same, same]]);
    expect(response.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getReplacesList()).toEqual([]);
    expect(kindsOf(response)).toEqual({ __provider: Kind.DELETE });
  });
});
