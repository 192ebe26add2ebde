import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConnectionError } from "../../provider/client";
import type { CreatedCandidate, KindDefinition, Props, ResourceContext } from "../../provider/framework/kind";
import { apiId, defineKind } from "../../provider/framework/kind";
import { Lifecycle } from "../../provider/framework/lifecycle";
import { Listings } from "../../provider/framework/listings";
import { Operation } from "../../provider/framework/operation";
import { UNKNOWN } from "../../provider/framework/unknown";

/**
 * What the lifecycle does around a kind's CRUD functions: the replace guard in check, the lookup `docs-platform
 * recover` uses, and the rule that no listing taken before a write serves a read after it.
 */
const inputs = z.strictObject({
  parentId: apiId,
  region: z.string(),
  title: z.string(),
  allowReplace: z.boolean().optional(),
});
const state = z.object({ parentId: z.string(), region: z.string(), title: z.string() });
type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** A client that sends nothing but reports its writes, as HttpClient does once each has ended. */
class WritingClient {
  readonly policy = { maxAttempts: 1 };
  readonly writes: string[] = [];
  private readonly listeners: ((path: string) => void)[] = [];
  observeWrites(listener: (path: string) => void): void {
    this.listeners.push(listener);
  }
  async write(path: string, failure?: Error): Promise<void> {
    this.writes.push(path);
    try {
      if (failure) throw failure;
    } finally {
      for (const listener of this.listeners) listener(path);
    }
  }
}

const writer = (ctx: ResourceContext) => ctx.client as unknown as WritingClient;
const vaultPath = (parentId: string, id = "") => `/orgs/o/sites/${parentId}/vaults${id ? `/${id}` : ""}`;

function kind(overrides: Partial<KindDefinition<Inputs, State>> = {}) {
  const listings = new Listings();
  const client = new WritingClient();
  let loads = 0;
  const definition = defineKind<Inputs, State>({
    kind: "Vault",
    docs: { description: "A test kind.", example: "", adoption: "" },
    scope: "organization",
    inputs,
    state,
    outputs: [],
    idFormat: "the vault id",
    replaceOnChanges: ["region"],
    guardedReplaces: { properties: ["region"], why: "its contents are lost." },
    providerOptions: ["allowReplace"],
    create: async (ctx, news) => {
      await writer(ctx).write(vaultPath(news.parentId));
      return { id: "v1", state: state.parse(news) };
    },
    read: async (ctx, id, known) => {
      // Reads go through the shared listing, as listed kinds do.
      const items = await ctx.listings.get(vaultPath(String(known.parentId)), async () => [{ id, stamp: loads++ }]);
      return { id, state: { ...(known as State), title: `load ${items[0]?.stamp}` } };
    },
    update: async (ctx, id, olds, news) => {
      await writer(ctx).write(vaultPath(olds.parentId, id));
      return state.parse({ ...olds, ...news });
    },
    delete: async (ctx, id, olds) => writer(ctx).write(vaultPath(olds.parentId, id)),
    ...overrides,
  });
  const lifecycle = new Lifecycle(
    definition,
    new Operation([]),
    () => ({ listings, client }) as unknown as ResourceContext,
  );
  return { lifecycle, client };
}

const olds = { parentId: "p1", region: "eu", title: "T" };

describe("check refuses a change that would replace a guarded property", () => {
  it("naming the property, both values, why and the way out", async () => {
    const { lifecycle } = kind();
    expect(await lifecycle.check(olds, { ...olds, region: "us" })).toEqual({
      failures: [
        {
          property: "region",
          reason:
            'Vault.region: changing it from "eu" to "us" replaces the Vault: its contents are lost. Put region back ' +
            'to "eu", or set allowReplace: true on this resource to replace it.',
        },
      ],
    });
  });

  it("not when allowReplace is true, on create, for the same value or an unknown one", async () => {
    const { lifecycle } = kind();
    const passes = async (old: Props, news: Props) => "inputs" in (await lifecycle.check(old, news));
    expect(await passes(olds, { ...olds, region: "us", allowReplace: true })).toBe(true);
    expect(await passes({}, { ...olds, region: "us" })).toBe(true);
    expect(await passes(olds, { ...olds, title: "Renamed" })).toBe(true);
    expect(await passes(olds, { ...olds, region: UNKNOWN })).toBe(true);
    expect(await passes({ ...olds, region: UNKNOWN }, { ...olds, region: "us" })).toBe(true);
    expect(await passes(olds, { ...olds, region: "us", allowReplace: false })).toBe(false);
  });
});

describe("findCreated", () => {
  it("is undefined for a kind whose create cannot duplicate", async () => {
    const { lifecycle } = kind();
    expect(await lifecycle.findCreated({ ...olds }, new Date(0))).toBeUndefined();
  });

  it("asks the kind with the inputs, without importId, and the time given", async () => {
    const asked: [Props, Date][] = [];
    const candidates: CreatedCandidate[] = [{ id: "v9", title: "T" }];
    const { lifecycle } = kind({
      findCreated: async (_ctx, news, since) => {
        asked.push([news, since]);
        return candidates;
      },
    });
    const since = new Date("2026-11-23T12:00:00Z");
    expect(await lifecycle.findCreated({ ...olds, importId: "v9" }, since)).toBe(candidates);
    expect(asked).toEqual([[olds, since]]);
  });

  it("explains a failure like any operation's", async () => {
    const { lifecycle } = kind({
      findCreated: async () => {
        throw new Error("listing failed");
      },
    });
    await expect(lifecycle.findCreated({ ...olds }, new Date(0))).rejects.toThrow("listing failed");
  });
});

describe("listings and writes", () => {
  it("reads share a listing; every write drops it, so the next read lists again", async () => {
    const { lifecycle, client } = kind();
    const title = async () => (await lifecycle.read("v1", olds)).props.title;
    expect(await title()).toBe("load 0");
    expect(await title()).toBe("load 0");
    await lifecycle.update("v1", olds, { ...olds, title: "Renamed" });
    expect(await title()).toBe("load 1");
    await lifecycle.create({ ...olds });
    expect(await title()).toBe("load 2");
    await lifecycle.delete("v1", olds);
    expect(await title()).toBe("load 3");
    expect(await title()).toBe("load 3");
    expect(client.writes).toHaveLength(3);
  });

  it("a write that fails drops it too: it may have changed something", async () => {
    const { lifecycle } = kind({
      update: async (ctx, id, previous) => {
        await writer(ctx).write(vaultPath(previous.parentId, id), new Error("connection reset"));
        return previous;
      },
    });
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
    await expect(lifecycle.update("v1", olds, { ...olds, title: "Renamed" })).rejects.toThrow("connection reset");
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 1");
  });

  it("an adoption that writes nothing keeps it: a create is not a write until the client sends one", async () => {
    const { lifecycle, client } = kind();
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
    // The object already has the declared inputs: adopting it reads it (from the listing) and sends nothing.
    await lifecycle.create({ ...olds, title: "load 0", importId: "v1" });
    expect(client.writes).toEqual([]);
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
  });

  it("an adoption that wrote drops it", async () => {
    const { lifecycle, client } = kind();
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
    await lifecycle.create({ ...olds, title: "Declared", importId: "v1" });
    expect(client.writes).toEqual([vaultPath("p1", "v1")]);
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 1");
  });

  it("a write under another site keeps it", async () => {
    const { lifecycle } = kind();
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
    await lifecycle.update("v2", { ...olds, parentId: "p2" }, { ...olds, parentId: "p2", title: "Renamed" });
    expect((await lifecycle.read("v1", olds)).props.title).toBe("load 0");
  });
});

describe("a create whose answer was lost finds the object it made", () => {
  const lost = () => {
    const where = { method: "POST", path: "/parents/p1/vaults", attempts: 1, outcomeUnknown: true };
    return new ConnectionError(where, "connection reset");
  };
  /** A kind whose create loses its answer after making "v7", found by the lookup; `deleted` records removals. */
  function recovering(overrides: Partial<KindDefinition<Inputs, State>> = {}) {
    const deleted: string[] = [];
    const { lifecycle } = kind({
      create: async () => {
        throw lost();
      },
      findCreated: async () => [{ id: "v7", title: "T" }],
      read: async (_ctx, id) => ({ id, state: { ...olds, title: "Old" } }),
      delete: async (_ctx, id) => {
        deleted.push(id);
      },
      ...overrides,
    });
    return { lifecycle, deleted };
  }

  it("brought to the inputs, it is the resource: nothing removed", async () => {
    const { lifecycle, deleted } = recovering();
    expect(await lifecycle.create({ ...olds })).toMatchObject({ id: "v7", outs: { title: "T" } });
    expect(deleted).toEqual([]);
  });

  it("when bringing it to the inputs fails, it is removed again and the error says so", async () => {
    const { lifecycle, deleted } = recovering({
      update: async () => {
        throw new Error("refused");
      },
    });
    await expect(lifecycle.create({ ...olds })).rejects.toThrow(
      /refused; the new Vault "v7" \("T"\) was removed again/,
    );
    expect(deleted).toEqual(["v7"]);
  });

  it("gone before it is read back: says so, without sending the reader to an importId", async () => {
    const { lifecycle, deleted } = recovering({ read: async () => undefined });
    const error = await lifecycle.create({ ...olds }).catch((e: Error) => e.message);
    expect(error).toContain(
      'Vault create: the answer was lost, and the Vault "v7" it made was gone before it could be read back',
    );
    expect(error).not.toContain("importId");
    expect(deleted).toEqual([]);
  });
});
