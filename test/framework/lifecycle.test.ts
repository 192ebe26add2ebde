import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ConflictError,
  type DocsApiError,
  errorForStatus,
  NotFoundError,
  ServerError,
  UnauthorizedError,
} from "../../provider/client";
import { explain } from "../../provider/framework/explain";
import { ECHO_LIMIT } from "../../provider/framework/inputRules";
import {
  apiId,
  apiIdPair,
  defineKind,
  type Found,
  type KindDefinition,
  type Props,
  type ResourceContext,
  SENSITIVE,
} from "../../provider/framework/kind";
import { Lifecycle } from "../../provider/framework/lifecycle";
import { Listings } from "../../provider/framework/listings";
import { Operation } from "../../provider/framework/operation";
import { UNKNOWN } from "../../provider/framework/unknown";

/**
 * The framework's lifecycle driven by an in-memory kind that records every CRUD call: what the engine gets back, and
 * which calls reach the kind (each one would be a request to the API), without an emulator in between.
 */
const inputs = z.strictObject({
  parentId: apiId,
  name: z.string().max(20),
  tags: z.array(z.string()).optional(),
  labels: z.array(z.string()).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  note: z.string().nullable().optional(),
  secret: z.string().max(10).optional().meta(SENSITIVE),
  enabled: z.boolean().default(true),
  waitSeconds: z.number().optional(),
});
const state = z.object({
  parentId: z.string(),
  name: z.string(),
  tags: z.array(z.string()).optional(),
  labels: z.array(z.string()).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  note: z.string().nullable().optional(),
  secret: z.string().optional(),
  enabled: z.boolean().default(true),
  waitSeconds: z.number().optional(),
  url: z.string().default(""),
});
type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

interface Call {
  operation: "create" | "read" | "update" | "delete";
  id?: string;
  changed?: string[];
  news?: Props;
  declared?: string[];
}

/** The in-memory API: objects by id, the calls the kind got, and what its next read or delete does instead. */
class Fake {
  objects = new Map<string, State>();
  calls: Call[] = [];
  readFails?: Error;
  deleteFails?: Error;
  updateFails?: Error;
  private next = 1;

  definition(overrides: Partial<KindDefinition<Inputs, State>> = {}): KindDefinition<Inputs, State> {
    return defineKind<Inputs, State>({
      kind: "Widget",
      docs: { description: "A test kind.", example: "", adoption: "" },
      scope: "organization",
      inputs,
      state,
      outputs: ["url"],
      idFormat: "the widget id",
      replaceOnChanges: ["parentId"],
      setProperties: ["tags"],
      providerOptions: ["waitSeconds"],
      create: async (_ctx, news) => {
        this.calls.push({ operation: "create", news: { ...news } });
        const id = `w${this.next++}`;
        const created = state.parse({ ...news, url: `https://example.test/${id}` });
        this.objects.set(id, created);
        return { id, state: created };
      },
      read: async (_ctx, id, _known, declared) => {
        this.calls.push({ operation: "read", id, declared: declared ? [...declared].sort() : undefined });
        if (this.readFails) throw this.readFails;
        const found = this.objects.get(id);
        return found ? ({ id, state: { ...found } } satisfies Found<State>) : undefined;
      },
      update: async (_ctx, id, olds, news, changed) => {
        this.calls.push({ operation: "update", id, changed: [...changed].sort(), news: { ...news } });
        if (this.updateFails) throw this.updateFails;
        const updated = state.parse({ ...olds, ...news });
        this.objects.set(id, updated);
        return updated;
      },
      delete: async (_ctx, id) => {
        this.calls.push({ operation: "delete", id });
        if (this.deleteFails) throw this.deleteFails;
        this.objects.delete(id);
      },
      ...overrides,
    });
  }

  lifecycle(overrides: Partial<KindDefinition<Inputs, State>> = {}): Lifecycle<Inputs, State> {
    return new Lifecycle(
      this.definition(overrides),
      new Operation([]),
      () => ({ listings: new Listings(), client: { policy: { maxAttempts: 1 } } }) as unknown as ResourceContext,
    );
  }

  operations(): string[] {
    return this.calls.map((call) => call.operation);
  }
}

const valid = { parentId: "p1", name: "Widget" };

function apiError(status: number, method = "GET", apiMessage = "the API said no"): DocsApiError {
  return errorForStatus({ method, path: "/v1/widgets/w1", status, apiMessage, attempts: 1 });
}

describe("diff: when inputs differ from the state", () => {
  const fake = new Fake();
  const life = fake.lifecycle();
  const olds = { ...valid, enabled: true, url: "u", settings: { a: 1, b: { c: 2, d: 3 } }, tags: ["x", "y"] };
  const diffOf = async (news: Props, from: Props = olds) => life.diff("w1", from, news);

  it("the same values, with nested key order changed, are no change", async () => {
    const diff = await diffOf({ ...valid, enabled: true, settings: { b: { d: 3, c: 2 }, a: 1 }, tags: ["x", "y"] });
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
  });

  it("a changed nested value is a change of that property only", async () => {
    const diff = await diffOf({ ...valid, settings: { a: 1, b: { c: 2, d: 4 } } });
    expect(diff.changes).toBe(true);
    expect(life.changedProperties(olds, { ...valid, settings: { a: 1, b: { c: 2, d: 4 } } })).toEqual(["settings"]);
  });

  it("null and absent are the same, at the top and inside objects", async () => {
    expect(life.changedProperties({ ...valid }, { ...valid, note: null })).toEqual([]);
    expect(life.changedProperties({ ...valid, note: null }, { ...valid })).toEqual([]);
    expect(life.changedProperties({ ...valid, settings: { a: 1 } }, { ...valid, settings: { a: 1, b: null } })).toEqual(
      [],
    );
    expect(life.changedProperties({ ...valid, settings: { a: 1, b: null } }, { ...valid, settings: { a: 1 } })).toEqual(
      [],
    );
    expect(life.changedProperties({ ...valid, note: null }, { ...valid, note: "" })).toEqual(["note"]);
    expect(life.changedProperties({ ...valid, settings: {} }, { ...valid, settings: { a: 0 } })).toEqual(["settings"]);
  });

  it("a set property ignores order, a list does not, and neither ignores a different member", async () => {
    expect(life.changedProperties(olds, { ...valid, tags: ["y", "x"] })).toEqual([]);
    expect(life.changedProperties(olds, { ...valid, tags: ["y", "z"] })).toEqual(["tags"]);
    expect(life.changedProperties(olds, { ...valid, tags: ["x", "y", "y"] })).toEqual(["tags"]);
    const listed = { ...valid, labels: ["x", "y"] };
    expect(life.changedProperties(listed, { ...valid, labels: ["x", "y"] })).toEqual([]);
    expect(life.changedProperties(listed, { ...valid, labels: ["y", "x"] })).toEqual(["labels"]);
  });

  it("objects inside a set compare by value, whatever their key order", async () => {
    const from = { ...valid, tags: [{ a: 1, b: 2 }, { a: 3 }] } as Props;
    expect(life.changedProperties(from, { ...valid, tags: [{ a: 3 }, { b: 2, a: 1 }] })).toEqual([]);
    expect(life.changedProperties(from, { ...valid, tags: [{ a: 3 }, { b: 2, a: 2 }] })).toEqual(["tags"]);
  });

  it("an unknown value is a change, at any depth, even where the state holds the sentinel", async () => {
    expect(life.changedProperties(olds, { ...valid, name: UNKNOWN })).toEqual(["name"]);
    expect(life.changedProperties(olds, { ...valid, settings: { a: 1, b: { c: UNKNOWN, d: 3 } } })).toEqual([
      "settings",
    ]);
    expect(life.changedProperties(olds, { ...valid, tags: ["x", UNKNOWN] })).toEqual(["tags"]);
    expect(life.changedProperties({ ...valid, name: UNKNOWN }, { ...valid, name: UNKNOWN })).toEqual(["name"]);
  });

  it("an undefined input is not managed, so no change", async () => {
    expect(life.changedProperties(olds, { ...valid, settings: undefined, tags: undefined })).toEqual([]);
  });

  it("provider options, importId and a property that is no input never diff", async () => {
    const diff = await diffOf({
      ...valid,
      waitSeconds: 30,
      importId: "other",
      __route: "a route's own property",
      url: "elsewhere",
    });
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
  });

  it("a change of a replace property replaces, without deleting first unless the kind declares it", async () => {
    expect(await diffOf({ ...valid, parentId: "p2", name: "Renamed" })).toEqual({
      changes: true,
      replaces: ["parentId"],
      deleteBeforeReplace: false,
      detailedDiff: { parentId: { kind: "update", replace: true }, name: { kind: "update", replace: false } },
    });
    const deletingFirst = fake.lifecycle({ deleteBeforeReplace: true });
    expect(await deletingFirst.diff("w1", olds, { ...valid, parentId: "p2" })).toEqual({
      changes: true,
      replaces: ["parentId"],
      deleteBeforeReplace: true,
      detailedDiff: { parentId: { kind: "update", replace: true } },
    });
    // An in-place change never deletes, even for such a kind.
    expect(await deletingFirst.diff("w1", olds, { ...valid, name: "Renamed" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: { name: { kind: "update", replace: false } },
    });
  });
});

describe("diff: the per-property changes both routes show, computed once here", () => {
  const life = new Fake().lifecycle();
  const olds = { ...valid, enabled: true, url: "u", note: null };

  it("lists each changed property once, in the inputs' order: add where the state has no value, else update", async () => {
    const news = { name: "Renamed", parentId: "p1", tags: ["a"], enabled: true, settings: { a: 1 } };
    const diff = await life.diff("w1", olds, news);
    expect(diff).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {
        name: { kind: "update", replace: false },
        tags: { kind: "add", replace: false },
        settings: { kind: "add", replace: false },
      },
    });
    expect(Object.keys(diff.detailedDiff)).toEqual(["name", "tags", "settings"]);
  });

  it("flags a replacing property, whether the state holds a value or not", async () => {
    const { parentId: _absent, ...older } = olds;
    expect((await life.diff("w1", older, { ...valid, enabled: true })).detailedDiff).toEqual({
      parentId: { kind: "add", replace: true },
    });
    expect((await life.diff("w1", olds, { ...valid, parentId: "p2", enabled: true })).detailedDiff).toEqual({
      parentId: { kind: "update", replace: true },
    });
  });

  it("takes a null in the state as a value, and a value unknown at preview as a change of it", async () => {
    expect((await life.diff("w1", olds, { ...valid, note: "set" })).detailedDiff).toEqual({
      note: { kind: "update", replace: false },
    });
    expect((await life.diff("w1", olds, { ...valid, name: UNKNOWN, tags: [UNKNOWN] })).detailedDiff).toEqual({
      name: { kind: "update", replace: false },
      tags: { kind: "add", replace: false },
    });
  });

  it("is plain data, the same for any route: no class, no protocol object", async () => {
    const diff = await life.diff("w1", olds, { ...valid, parentId: "p2", note: "n" });
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff);
    expect(Object.getPrototypeOf(diff.detailedDiff)).toBe(Object.prototype);
  });

  it("agrees with changes, replaces and changedProperties for any inputs", async () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ maxLength: 3 }),
      fc.constant(UNKNOWN),
    );
    const props = fc.record({ parentId: value, name: value, note: value, tags: fc.option(fc.array(fc.string())) });
    await fc.assert(
      fc.asyncProperty(props, props, async (before, after) => {
        const state = stripUndefined(before);
        const news = stripUndefined(after);
        const diff = await life.diff("w1", state, news);
        const changed = life.changedProperties(state, news);
        expect(Object.keys(diff.detailedDiff)).toEqual(changed);
        expect(diff.replaces).toEqual(changed.filter((key) => diff.detailedDiff[key]?.replace));
        expect(diff.changes).toBe(changed.length > 0);
        for (const key of changed) {
          expect(diff.detailedDiff[key]?.kind).toBe(state[key] === undefined ? "add" : "update");
          expect(diff.detailedDiff[key]?.replace).toBe(key === "parentId");
        }
      }),
      { numRuns: 200 },
    );
  });
});

function stripUndefined(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
}

describe("check", () => {
  const life = new Fake().lifecycle();

  it("applies the schema's defaults and keeps importId", async () => {
    expect(await life.check({}, valid)).toEqual({ inputs: { ...valid, enabled: true } });
    expect(await life.check({}, { ...valid, importId: "w9" })).toEqual({
      inputs: { ...valid, enabled: true, importId: "w9" },
    });
  });

  it("rejects an empty importId, and one that is not an id, naming importId", async () => {
    for (const importId of ["", "a/b", "../w1"]) {
      const result = await life.check({}, { ...valid, importId });
      expect(result.failures).toEqual([
        { property: "importId", reason: expect.stringMatching(/^Widget\.importId: must be an id/) },
      ]);
      expect(result.inputs).toBeUndefined();
    }
  });

  it("judges an unknown importId later, and a kind's own importId format", async () => {
    expect((await life.check({}, { ...valid, importId: UNKNOWN })).failures).toBeUndefined();
    const pairs = new Fake().lifecycle({ importId: apiIdPair });
    expect((await pairs.check({}, { ...valid, importId: "t1/u1" })).failures).toBeUndefined();
    expect((await pairs.check({}, { ...valid, importId: "t1" })).failures).toEqual([
      { property: "importId", reason: expect.stringMatching(/^Widget\.importId: must be two ids/) },
    ]);
  });

  it("reports every broken rule, naming nested properties and unknown keys", async () => {
    const result = await life.check({}, { ...valid, name: 7, tags: ["ok", 3], extra: 1, other: 2 });
    expect(result.failures).toEqual([
      { property: "name", reason: expect.stringMatching(/^Widget\.name: /) },
      { property: "tags.1", reason: expect.stringMatching(/^Widget\.tags\.1: /) },
      { property: "extra, other", reason: expect.stringMatching(/^Widget\.extra, other: /) },
    ]);
  });

  it("skips a failure about an unknown value, and still defaults the known properties", async () => {
    const result = await life.check({}, { parentId: UNKNOWN, name: UNKNOWN, tags: [UNKNOWN] });
    expect(result).toEqual({ inputs: { parentId: UNKNOWN, name: UNKNOWN, tags: [UNKNOWN], enabled: true } });
    // A known property keeps failing next to an unknown one.
    const mixed = await life.check({}, { parentId: UNKNOWN, name: "x".repeat(21) });
    expect(mixed.failures).toEqual([{ property: "name", reason: expect.stringMatching(/^Widget\.name: /) }]);
  });

  it("passes unknown inputs through as given when the known ones cannot be judged alone", async () => {
    const refined = new Fake().lifecycle({
      inputs: inputs.refine((value) => value.name !== "forbidden", "forbidden name") as unknown as typeof inputs,
    });
    // The object-wide rule fails while parentId is unknown: judged at apply, and the inputs go through untouched.
    const news = { parentId: UNKNOWN, name: "forbidden" };
    expect(await refined.check({}, news)).toEqual({ inputs: news });
    const failed = await refined.check({}, { ...valid, name: "forbidden" });
    expect(failed.failures).toEqual([{ property: "", reason: "Widget.(inputs): forbidden name" }]);
  });

  it("never names a sensitive property's or a huge value's property, so the engine cannot echo it", async () => {
    const secret = await life.check({}, { ...valid, secret: "s3cr3t-longer-than-ten" });
    expect(secret.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^Widget\.secret: .*\(value not shown: sensitive\)$/) },
    ]);
    // The engine's echo is the JSON text: a string of ECHO_LIMIT - 2 characters is exactly the limit, and shown.
    const atLimit = await life.check({}, { ...valid, name: "n".repeat(ECHO_LIMIT - 2) });
    expect(atLimit.failures).toEqual([{ property: "name", reason: expect.stringMatching(/^Widget\.name: /) }]);
    const overLimit = await life.check({}, { ...valid, name: "n".repeat(ECHO_LIMIT - 1) });
    expect(overLimit.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^Widget\.name: .*\(value not shown: too long\)$/) },
    ]);
  });
});

describe("create, update and adoption: which calls reach the API", () => {
  it("create sends the declared inputs, and outputs what was declared", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    const result = await life.create({ ...valid, enabled: true, waitSeconds: 5, tags: undefined });
    expect(fake.calls).toEqual([{ operation: "create", news: { ...valid, enabled: true, waitSeconds: 5 } }]);
    expect(result).toEqual({
      id: "w1",
      outs: {
        ...valid,
        enabled: true,
        waitSeconds: 5,
        url: "https://example.test/w1",
        __declared: ["parentId", "name", "enabled", "waitSeconds"],
      },
    });
  });

  it("a no-op update sends nothing and returns the old state", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    const { id, outs } = await life.create({ ...valid, enabled: true, tags: ["a", "b"] });
    fake.calls = [];
    const news = { ...valid, enabled: true, tags: ["b", "a"], waitSeconds: 60 };
    const result = await life.update(id, outs as Props, news);
    expect(fake.calls).toEqual([]);
    expect(result.outs).toEqual({
      ...outs,
      waitSeconds: 60,
      __declared: ["parentId", "name", "tags", "enabled", "waitSeconds"],
    });
  });

  it("an update passes exactly the changed properties", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    const { id, outs } = await life.create({ ...valid, enabled: true });
    fake.calls = [];
    const result = await life.update(id, outs as Props, { ...valid, name: "New", enabled: false, labels: ["l"] });
    expect(fake.calls).toEqual([
      {
        operation: "update",
        id,
        changed: ["enabled", "labels", "name"],
        news: { ...valid, name: "New", enabled: false, labels: ["l"] },
      },
    ]);
    expect(result.outs).toMatchObject({ name: "New", enabled: false, labels: ["l"] });
  });

  it("adopting an object that already matches reads it and sends no update", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    fake.objects.set("w7", state.parse({ ...valid, enabled: true, url: "https://example.test/w7" }));
    const result = await life.create({ ...valid, enabled: true, importId: "w7" });
    expect(fake.operations()).toEqual(["read"]);
    // Adoption reads only what the program declares (a Team without members lists no members).
    expect(fake.calls[0]?.declared).toEqual(["enabled", "name", "parentId"]);
    expect(result).toEqual({
      id: "w7",
      outs: {
        ...valid,
        enabled: true,
        url: "https://example.test/w7",
        importId: "w7",
        __declared: ["parentId", "name", "enabled"],
      },
    });
  });

  it("adopting an object that differs updates only the differences, never creates", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    fake.objects.set("w7", state.parse({ ...valid, name: "Old", enabled: true }));
    const result = await life.create({ ...valid, enabled: true, importId: "w7" });
    expect(fake.operations()).toEqual(["read", "update"]);
    expect(fake.calls[1]).toMatchObject({ id: "w7", changed: ["name"] });
    expect(result.id).toBe("w7");
    expect(result.outs).toMatchObject({ name: "Widget", importId: "w7" });
  });

  it("adopting an id that names nothing fails, naming importId and the fix, whether read finds nothing or 404s", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    const message =
      'Widget: importId "w404" names no existing Widget that these inputs can reach. Fix importId (format: the widget id) or remove it to create a new Widget.';
    await expect(life.create({ ...valid, importId: "w404" })).rejects.toThrow(message);
    fake.readFails = apiError(404);
    await expect(life.create({ ...valid, importId: "w404" })).rejects.toThrow(message);
    expect(fake.operations()).toEqual(["read", "read"]);
  });

  it("a failed update is explained: kind, id, operation, the API's answer and the fix", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    const { id, outs } = await life.create({ ...valid, enabled: true });
    fake.updateFails = apiError(409, "PATCH");
    const failure = life.update(id, outs as Props, { ...valid, name: "Dup" });
    await expect(failure).rejects.toThrow(
      `Widget "${id}" update: PATCH /v1/widgets/w1 failed with 409 Conflict: the API said no.`,
    );
    await expect(failure).rejects.toMatchObject({ name: "ConflictError", cause: expect.any(ConflictError) });
  });
});

describe("kinds with nothing to create (adoptsOnCreate), one resource per object (uniqueBy), guarded replaces", () => {
  const adopting = { id: (news: Inputs) => `w-${news.name}`, missing: "invite it first." };

  it("create adopts the object the inputs name: a read, an update of the differences only, never a create", async () => {
    const fake = new Fake();
    const life = fake.lifecycle({ adoptsOnCreate: adopting, create: undefined });
    fake.objects.set("w-Widget", state.parse({ ...valid, enabled: false }));
    const result = await life.create({ ...valid, enabled: true });
    expect(fake.operations()).toEqual(["read", "update"]);
    expect(fake.calls[1]).toMatchObject({ id: "w-Widget", changed: ["enabled"] });
    expect(result.id).toBe("w-Widget");
    expect(result.outs).not.toHaveProperty("importId");
    fake.calls = [];
    expect((await life.create({ ...valid, enabled: true })).id).toBe("w-Widget");
    expect(fake.operations()).toEqual(["read"]);
  });

  it("create fails in the kind's words when there is nothing to adopt; an importId still takes precedence", async () => {
    const fake = new Fake();
    const life = fake.lifecycle({ adoptsOnCreate: adopting, create: undefined });
    await expect(life.create({ ...valid })).rejects.toThrow('Widget "w-Widget": invite it first.');
    fake.objects.set("w9", state.parse({ ...valid }));
    expect((await life.create({ ...valid, importId: "w9" })).id).toBe("w9");
    expect(fake.operations()).toEqual(["read", "read"]);
  });

  it("check fails for a second resource naming the same object, not for the same inputs checked again", async () => {
    const life = new Fake().lifecycle({ programRules: { uniqueBy: ["parentId"] } });
    expect((await life.check({}, { ...valid })).failures).toBeUndefined();
    expect((await life.check({}, { ...valid })).failures).toBeUndefined();
    expect((await life.check({}, { ...valid, parentId: "p2", name: "Other" })).failures).toBeUndefined();
    expect((await life.check({}, { ...valid, name: "Other" })).failures).toEqual([
      {
        property: "parentId",
        reason:
          'Widget.parentId: another Widget of this program already declares parentId "p1"; each would undo the ' +
          "other's changes on every run. Declare them in one resource.",
      },
    ]);
    expect((await life.check({}, { ...valid, parentId: UNKNOWN, name: "Third" })).failures).toBeUndefined();
  });

  it("a guarded replace with a condition is refused only while the old inputs meet it", async () => {
    const life = new Fake().lifecycle({
      guardedReplaces: { properties: ["parentId"], why: "it hurts.", when: (olds) => olds.enabled === true },
    });
    const moved = { ...valid, parentId: "p2" };
    expect((await life.check({ ...valid, enabled: false }, moved)).failures).toBeUndefined();
    expect((await life.check({ ...valid, enabled: true }, { ...moved, name: "Other" })).failures).toEqual([
      { property: "parentId", reason: expect.stringContaining("replaces the Widget: it hurts.") },
    ]);
  });
});

describe("read", () => {
  it("returns only the declared inputs, provider options from the old state, and importId", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    fake.objects.set("w1", state.parse({ ...valid, note: "by hand", tags: ["t"], waitSeconds: 1, url: "u" }));
    const props = {
      ...valid,
      enabled: true,
      waitSeconds: 9,
      url: "u",
      importId: "w1",
      __declared: ["parentId", "name", "waitSeconds"],
    };
    const result = await life.read("w1", props);
    expect(result.id).toBe("w1");
    expect(result.inputs).toEqual({ ...valid, waitSeconds: 9, importId: "w1" });
    expect(fake.calls).toEqual([{ operation: "read", id: "w1", declared: ["name", "parentId", "waitSeconds"] }]);
    // The refreshed outputs are the API's object plus what only the program knows.
    expect(result.props).toEqual({
      ...valid,
      note: "by hand",
      tags: ["t"],
      enabled: true,
      waitSeconds: 9,
      url: "u",
      importId: "w1",
      __declared: ["parentId", "name", "waitSeconds"],
    });
  });

  it("a state without the declared list returns every input the object has, and reads with no declared set", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    fake.objects.set("w1", state.parse({ ...valid, note: "n", url: "u" }));
    const result = await life.read("w1", { ...valid, url: "u", __declared: "not a list" });
    expect(result.inputs).toEqual({ ...valid, note: "n", enabled: true });
    expect(fake.calls[0]?.declared).toBeUndefined();
  });

  it("an object that is gone, or a 404, drops the resource: empty id", async () => {
    const fake = new Fake();
    const life = fake.lifecycle();
    expect(await life.read("w1", { ...valid })).toEqual({ id: "", props: {} });
    fake.readFails = apiError(404);
    expect(await life.read("w1", { ...valid })).toEqual({ id: "", props: {} });
  });

  it("any other failure is an error, not a drop", async () => {
    const fake = new Fake();
    fake.readFails = apiError(500);
    await expect(fake.lifecycle().read("w1", { ...valid })).rejects.toThrow(
      /^Widget "w1" read: GET \/v1\/widgets\/w1 failed with 500/,
    );
  });

  it("a state this version cannot read fails naming the resource and the field", async () => {
    await expect(new Fake().lifecycle().read("w1", { parentId: "p1" })).rejects.toThrow(
      /^Widget "w1": the stored state cannot be read \(name: /,
    );
  });

  it("lookup reads an object no state holds, shaped like a refresh", async () => {
    const fake = new Fake();
    fake.objects.set("w1", state.parse({ ...valid, url: "u" }));
    const result = await fake.lifecycle().lookup("w1", { parentId: "p1" });
    expect(result).toEqual({
      id: "w1",
      props: { ...valid, enabled: true, url: "u", __declared: [] },
      inputs: { ...valid, enabled: true },
    });
  });
});

describe("delete", () => {
  it("an object already gone (404) counts as deleted", async () => {
    const fake = new Fake();
    fake.deleteFails = new NotFoundError({ method: "DELETE", path: "/v1/widgets/w1", status: 404, attempts: 1 });
    await expect(fake.lifecycle().delete("w1", { ...valid })).resolves.toBeUndefined();
    expect(fake.operations()).toEqual(["delete"]);
  });

  it("any other failure is explained and rethrown", async () => {
    const fake = new Fake();
    fake.deleteFails = apiError(500, "DELETE");
    await expect(fake.lifecycle().delete("w1", { ...valid })).rejects.toThrow(
      'Widget "w1" delete: DELETE /v1/widgets/w1 failed with 500 Internal Server Error: the API said no.',
    );
    fake.deleteFails = new Error("plain");
    await expect(fake.lifecycle().delete("w1", { ...valid })).rejects.toThrow(/^plain$/);
  });
});

const READ_401_FIX = "The rejected token is DOCS_API_TOKEN: export a valid one.";

describe("explain: what an error says about the fix", () => {
  const kind = { kind: "Widget", idFormat: "the widget id" };
  const hints: [status: number, operation: string, fix: string | undefined][] = [
    // Refresh, read and destroy run with the configuration saved by the last update: the fix says so.
    [401, "read", READ_401_FIX],
    [
      403,
      "update",
      "The token's user lacks the permission this operation needs; use a token of an organization admin.",
    ],
    [404, "create", "A parent object named in the inputs does not exist: check the ids passed to this resource."],
    [
      404,
      "update",
      "It no longer exists: run `pulumi refresh` to drop it from the state, then `pulumi up` recreates it.",
    ],
    // Only a 409 whose message says the object already exists is solved by importId; this one says no more.
    [409, "create", undefined],
    // A 429 that reaches here already waited as long as DOCS_API_MAX_WAIT_SECONDS allows: the client's message says so.
    [429, "create", undefined],
    [400, "create", undefined],
    [412, "update", undefined],
    [500, "delete", undefined],
  ];
  it.each(hints)("%i on %s", (status, operation, fix) => {
    const error = apiError(status);
    const explained = explain(kind, operation, "w1", error) as Error;
    const expected = `Widget "w1" ${operation}: ${error.message}.${fix ? ` ${fix}` : ""}`;
    expect(explained.message).toBe(expected);
    expect(explained).toMatchObject({ name: error.name, cause: error });
  });

  it("a 400 naming an object the API does not know points at the ids and at preflight", () => {
    const error = apiError(400, "POST", 'spaceId: space "noSuchSpace" not found in organization "o1"');
    expect((explain(kind, "create", undefined, error) as Error).message).toBe(
      `Widget create: ${error.message}. An id in the inputs names no object the API knows: check it. ` +
        "`DOCS_PREFLIGHT=true pulumi preview` checks every id before `up`.",
    );
  });

  it("names no id when there is none (create)", () => {
    const explained = explain(kind, "create", undefined, apiError(400, "POST")) as Error;
    expect(explained.message).toMatch(/^Widget create: POST /);
  });

  it("adds the fix once to a kind's own error caused by an API error, and leaves other errors alone", () => {
    const cause = new UnauthorizedError({ method: "GET", path: "/v1/x", status: 401, attempts: 1 });
    const own = new Error("Widget: could not find the parent", { cause });
    const explained = explain(kind, "read", "w1", own) as Error;
    const fix = READ_401_FIX;
    expect(explained.message).toBe(`Widget: could not find the parent ${fix}`);
    expect(explained.cause).toBe(own);
    // Explained again (an error passes the lifecycle's guard twice when one operation runs another): once only.
    expect((explain(kind, "read", "w1", explained) as Error).message).toBe(explained.message);
    // The kind's own error is never changed.
    expect(own.message).toBe("Widget: could not find the parent");
    const unrelated = new Error("boom", {
      cause: new ServerError({ method: "GET", path: "/v1/x", status: 500, attempts: 1 }),
    });
    expect((explain(kind, "read", "w1", unrelated) as Error).message).toBe("boom");
    expect(explain(kind, "read", "w1", "a string")).toBe("a string");
  });
});
