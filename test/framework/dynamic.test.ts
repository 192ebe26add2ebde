import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROVIDER_KEY, providerFor } from "../../provider/framework/dynamic";
import type { Props } from "../../provider/framework/kind";
import type { DiffResult } from "../../provider/framework/lifecycleResults";
import { serveRequires } from "./nodeRequire";

/**
 * The dynamic route's adapter (provider/framework/dynamic.ts) between the SDK's dynamic provider and the Lifecycle:
 * driven over a stand-in runtime whose lifecycle records what reaches it and answers canned results, so what is
 * checked is the translation alone. (test/runtime/smoke.test.ts drives the same object over the real runtime.)
 */
const calls: { method: string; args: unknown[] }[] = [];
const DIFF: DiffResult = {
  changes: true,
  replaces: ["parentId"],
  deleteBeforeReplace: true,
  detailedDiff: { parentId: { kind: "update", replace: true }, title: { kind: "add", replace: false } },
};
const answers: Record<string, unknown> = {
  check: { inputs: { title: "T" } },
  diff: DIFF,
  create: { id: "c1", outs: { title: "T" } },
  read: { id: "c1", props: { title: "T" }, inputs: { title: "T" } },
  update: { outs: { title: "U" } },
  delete: undefined,
};
const standIn = {
  lifecycle: (kind: string) =>
    Object.fromEntries(
      Object.keys(answers).map((method) => [
        method,
        async (...args: unknown[]) => {
          calls.push({ method: `${kind}.${method}`, args });
          return answers[method];
        },
      ]),
    ),
  configure: (request: unknown) => calls.push({ method: "configure", args: [request] }),
};

let undo: () => void = () => {};
beforeAll(() => {
  undo = serveRequires({ "../runtime": standIn });
});
afterAll(() => undo());
beforeEach(() => {
  calls.length = 0;
});

const serialized = { [PROVIDER_KEY]: 'require("pulumi-docs-platform/kinds/Collection")' };
const olds = { title: "Old", ...serialized };
const news = { title: "New", ...serialized };

describe("the dynamic route's provider object", () => {
  it("hands the Lifecycle every call without the serialized provider, which is the route's and no kind's", async () => {
    const provider = providerFor("Collection");
    await provider.check?.(olds, news);
    await provider.diff?.("c1", olds, news);
    await provider.create(news);
    await provider.read?.("c1", olds);
    await provider.update?.("c1", olds, news);
    await provider.delete?.("c1", olds);
    expect(calls).toEqual([
      { method: "Collection.check", args: [{ title: "Old" }, { title: "New" }] },
      { method: "Collection.diff", args: ["c1", { title: "Old" }, { title: "New" }] },
      { method: "Collection.create", args: [{ title: "New" }] },
      { method: "Collection.read", args: ["c1", { title: "Old" }] },
      { method: "Collection.update", args: ["c1", { title: "Old" }, { title: "New" }] },
      { method: "Collection.delete", args: ["c1", { title: "Old" }] },
    ]);
    // What the SDK gave is left as it was: it sets the serialized provider again on what it answers the engine.
    expect(news[PROVIDER_KEY]).toBe(serialized[PROVIDER_KEY]);
  });

  it("answers a diff without the per-property changes, which a dynamic provider cannot send", async () => {
    expect(await providerFor("Collection").diff?.("c1", olds, news)).toEqual({
      changes: true,
      replaces: ["parentId"],
      deleteBeforeReplace: true,
    });
  });

  it("answers the Lifecycle's check, create, read and update results as they are", async () => {
    const provider = providerFor("Site");
    expect(await provider.check?.({}, news)).toBe(answers.check);
    expect(await provider.create(news)).toBe(answers.create);
    expect(await provider.read?.("c1", olds)).toBe(answers.read);
    expect(await provider.update?.("c1", olds, news)).toBe(answers.update);
    expect(calls.map((call) => call.method)).toEqual(["Site.check", "Site.create", "Site.read", "Site.update"]);
  });

  it("passes configure to the runtime", async () => {
    const request = { config: new Map() } as unknown as Parameters<
      NonNullable<ReturnType<typeof providerFor>["configure"]>
    >[0];
    await providerFor("Collection").configure?.(request);
    expect(calls).toEqual([{ method: "configure", args: [request] }]);
  });

  it("reads with no props as with empty ones", async () => {
    await providerFor("Collection").read?.("c1", undefined as unknown as Props);
    expect(calls).toEqual([{ method: "Collection.read", args: ["c1", {}] }]);
  });
});
