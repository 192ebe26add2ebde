import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import type { EmulatorFixture } from "./emulator";

type Step<T> = (fixture: EmulatorFixture, previous: Props) => T | Promise<T>;

/**
 * The lifecycle table every kind fills in: create, read, each in-place update, each replace field, an out-of-band
 * change seen by read, adoption with importId, delete and read after delete. Each row runs against a fresh emulator.
 */
export interface LifecycleTable {
  kind: string;
  /** Inputs to create with; may create parent objects through `fixture.api` first. */
  inputs: Step<Props>;
  created?: (state: Props, fixture: EmulatorFixture) => void;
  updates: UpdateRow[];
  replaces: { property: string; inputs: Step<Props> }[];
  outOfBand: { change: (id: string, fixture: EmulatorFixture) => Promise<void>; expect: (state: Props) => void };
  adopt: {
    existing: (fixture: EmulatorFixture) => Promise<string>;
    /** An importId of the kind's format that names no object; `does-not-exist` unless the kind's ids are composite. */
    missing?: string;
    inputs: Step<Props>;
    expect: (state: Props) => void;
  };
  /**
   * Why the API object outlives the resource (an order, settings): delete then leaves it readable, and the row
   * asserts that instead of an empty id.
   */
  deleteKeepsObject?: string;
}

/** One in-place update of the table: the inputs it applies to the created ones, and what the new state shows. */
export interface UpdateRow {
  name: string;
  inputs: Step<Props>;
  expect: (state: Props, fixture: EmulatorFixture) => unknown;
}

/** The plainest update row: sets `property` to `value`, after which the state holds that value. */
export function updateTo(property: string, value: unknown, name = property): UpdateRow {
  return {
    name,
    inputs: (_f, previous) => ({ ...previous, [property]: value }),
    expect: (state) => expect(state[property]).toEqual(value),
  };
}

export async function checked(kind: string, news: Props): Promise<Props> {
  // Each call stands for the check of a new engine operation, which runs in a provider process of its own: what an
  // earlier check saw (a kind's uniqueBy claim) must not make this one a second resource of the same program.
  const operation = new Operation(definitions);
  try {
    const result = await lifecycle(kind, operation).check({}, news);
    expect(result.failures ?? []).toEqual([]);
    return result.inputs as Props;
  } finally {
    operation.close();
  }
}

export async function created(kind: string, news: Props): Promise<{ id: string; state: Props; inputs: Props }> {
  const inputs = await checked(kind, news);
  const result = await lifecycle(kind).create(inputs);
  expect(result.id).toBeTruthy();
  return { id: result.id, state: result.outs as Props, inputs };
}

/**
 * One rejected value of `check`: the change to valid inputs, the property the failures name, and the rule each states
 * (several rules when the value breaks more than one). `hidden`: the value is sensitive or huge, so the failure names
 * the property in its reason only (the engine would print the value of a property the failure names).
 */
export type LimitCase = [change: Props, property: string, reason: RegExp | RegExp[], hidden?: "hidden"];

/**
 * Each change to `valid` inputs fails `check` with exactly one failure per rule it breaks, naming the property, in a
 * message that starts with `<kind>.<property>: `.
 */
export async function expectEachLimitRejected(kind: string, valid: Props, cases: LimitCase[]): Promise<void> {
  for (const [change, property, reasons, hidden] of cases) {
    const result = await lifecycle(kind).check({}, { ...valid, ...change });
    const named = hidden ? "" : property;
    const expected = [reasons].flat().map((reason) => ({ property: named, reason: expect.stringMatching(reason) }));
    expect(result.failures, `${kind} check of ${JSON.stringify(change)}`).toEqual(expected);
    for (const failure of result.failures ?? []) {
      expect(failure.reason).toMatch(new RegExp(`^${escapeRegExp(`${kind}.${property}`)}: `));
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function describeLifecycle(table: LifecycleTable, fixture: EmulatorFixture): void {
  const kind = table.kind;
  const provider = () => lifecycle(kind);

  describe(`${kind} lifecycle`, () => {
    it("creates, and read returns the same state and the inputs", async () => {
      const { id, state, inputs } = await created(kind, await table.inputs(fixture, {}));
      table.created?.(state, fixture);
      const read = await provider().read(id, state);
      expect(read.id).toBe(id);
      expect(read.props).toEqual(state);
      for (const [key, value] of Object.entries(inputs))
        if (value !== undefined) expect(read.inputs).toHaveProperty(key);
      expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(false);
    });

    for (const update of table.updates) {
      it(`updates ${update.name} in place`, async () => {
        const { id, state, inputs } = await created(kind, await table.inputs(fixture, {}));
        const next = await checked(kind, await update.inputs(fixture, inputs));
        const diff = await provider().diff(id, state, next);
        expect(diff.changes).toBe(true);
        expect(diff.replaces).toEqual([]);
        const { outs } = await provider().update(id, state, next);
        await update.expect(outs as Props, fixture);
        const read = await provider().read(id, outs as Props);
        expect(read.props).toEqual(outs);
        expect((await provider().diff(id, read.props as Props, next)).changes).toBe(false);
      });
    }

    for (const replace of table.replaces) {
      it(`replaces on a change of ${replace.property}`, async () => {
        const { id, state, inputs } = await created(kind, await table.inputs(fixture, {}));
        const next = await checked(kind, await replace.inputs(fixture, inputs));
        const diff = await provider().diff(id, state, next);
        expect(diff.changes).toBe(true);
        expect(diff.replaces).toContain(replace.property);
      });
    }

    it("sees an out-of-band change on read, and diff reports it", async () => {
      const { id, state, inputs } = await created(kind, await table.inputs(fixture, {}));
      await table.outOfBand.change(id, fixture);
      const read = await provider().read(id, state);
      expect(read.id).toBe(id);
      table.outOfBand.expect(read.props as Props);
      expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(true);
    });

    it("adopts an existing object with importId, and ignores a later change of importId", async () => {
      const existing = await table.adopt.existing(fixture);
      const inputs = await checked(kind, { ...(await table.adopt.inputs(fixture, {})), importId: existing });
      const result = await provider().create(inputs);
      expect(result.id).toBe(existing);
      table.adopt.expect(result.outs as Props);
      const diff = await provider().diff(result.id, result.outs as Props, { ...inputs, importId: "something-else" });
      expect(diff.changes).toBe(false);
    });

    it("fails adoption of an unknown id with a message naming importId", async () => {
      const missing = table.adopt.missing ?? "does-not-exist";
      const inputs = await checked(kind, { ...(await table.adopt.inputs(fixture, {})), importId: missing });
      await expect(provider().create(inputs)).rejects.toThrow(`importId "${missing}"`);
    });

    it(
      table.deleteKeepsObject
        ? `deletes, leaving the object readable (${table.deleteKeepsObject}), and a second delete succeeds`
        : "deletes, after which read returns an empty id and a second delete succeeds",
      async () => {
        const { id, state } = await created(kind, await table.inputs(fixture, {}));
        await provider().delete(id, state);
        expect((await provider().read(id, state)).id).toBe(table.deleteKeepsObject ? id : "");
        await provider().delete(id, state);
      },
    );
  });
}
