import type * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerFor } from "../../provider/framework/dynamic";
import Collection from "../../provider/kinds/Collection";
import * as runtime from "../../provider/runtime";
import { serveRequires } from "../framework/nodeRequire";
import { useEmulator } from "../support/emulator";

/**
 * The provider object exactly as a state's `__provider` rebuilds it in the plugin process: the module exports of
 * provider/kinds/<Kind>, whose methods load the runtime when called. One pass of every method against the emulator.
 */
const fixture = useEmulator();

let undo: () => void = () => {};
beforeAll(() => {
  undo = serveRequires({ "../runtime": runtime });
});
afterAll(() => undo());

// A static import, not `import(\`…/kinds/${kind}\`)`: the mutation run (stryker.config.mjs) picks the tests of a
// file from the import graph, and only a static import puts this test in framework/dynamic.ts's.
const providers: Record<string, pulumi.dynamic.ResourceProvider> = { Collection };

async function providerOf(kind: string): Promise<pulumi.dynamic.ResourceProvider> {
  const provider = providers[kind];
  if (!provider) throw new Error(`no provider object loaded for ${kind}`);
  return provider;
}

describe("the serialized provider object", () => {
  it("holds only methods, none of them capturing a client, a schema or a token", async () => {
    const provider = await providerOf("Collection");
    expect(Object.keys(provider).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    for (const method of Object.values(provider)) expect(typeof method).toBe("function");
    expect(JSON.stringify(Object.values(provider).map(String))).not.toContain(fixture.emulator.token);
  });

  it("is what providerFor builds for the kind", async () => {
    expect(Object.keys(providerFor("Collection"))).toEqual(Object.keys(await providerOf("Collection")));
  });

  it("check, diff, create, read, update and delete a Collection through it, one request each", async () => {
    // Built here rather than taken from the module loaded at import: a mutation run activates a mutant per test, and
    // the module's object was built before any test ran (framework/dynamic.ts's mutants then all survived).
    const provider = providerFor("Collection");
    const org = fixture.org();
    const checked = await provider.check!({}, { organizationId: org, title: "Smoke", __provider: "serialized" });
    expect(checked).toEqual({ inputs: { organizationId: org, title: "Smoke", parentId: null } });
    const news = checked.inputs as Record<string, unknown>;
    expect(fixture.calls()).toEqual([]);

    const created = await provider.create!(news);
    expect(fixture.calls()).toEqual([`POST /v1/orgs/${org}/collections`]);
    expect(created.outs).toMatchObject({ organizationId: org, title: "Smoke", parentId: null });

    const read = await provider.read!(created.id, created.outs);
    expect(read).toMatchObject({
      id: created.id,
      props: created.outs,
      inputs: { organizationId: org, title: "Smoke" },
    });
    expect(await provider.diff!(created.id, read.props, news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });

    const renamed = { ...news, title: "Smoke, renamed" };
    expect(await provider.diff!(created.id, read.props, renamed)).toMatchObject({ changes: true, replaces: [] });
    fixture.emulator.clearRequests();
    const updated = await provider.update!(created.id, read.props, renamed);
    expect(fixture.calls()).toEqual([`PATCH /v1/collections/${created.id}`]);
    expect(updated.outs).toMatchObject({ title: "Smoke, renamed" });

    fixture.emulator.clearRequests();
    await provider.delete!(created.id, updated.outs);
    expect(fixture.calls()).toEqual([`DELETE /v1/collections/${created.id}`]);
    expect((await fixture.api("GET", `/collections/${created.id}`)).status).toBe(404);
    // Deleting what is already gone succeeds, whether the API answers 204 (as it does) or 404.
    fixture.emulator.clearRequests();
    await provider.delete!(created.id, updated.outs);
    fixture.emulator.injectFault({ method: "DELETE", path: `/v1/collections/${created.id}`, status: 404, count: 1 });
    await provider.delete!(created.id, updated.outs);
    expect(fixture.emulator.requests().map((r) => [r.method, r.status])).toEqual([
      ["DELETE", 204],
      ["DELETE", 404],
    ]);
  });
});
