/**
 * The model-based test declares every kind of the registry: a kind without a slot (./program.ts), or without an edit
 * by hand (./model.ts), fails here by name, so a new kind cannot be left out of the model.
 */
import { expect, it } from "vitest";
import { definitions } from "../../provider/registry";
import { handEditable } from "./model";
import { kindOf, SLOT_NAMES, variantCount } from "./program";

const modelled = new Set(SLOT_NAMES.map(kindOf));

it("has a slot for every kind of the registry", () => {
  const missing = definitions.map((definition) => definition.kind).filter((kind) => !modelled.has(kind));
  expect(missing, `kinds of provider/registry.ts with no slot in test/model/program.ts: ${missing.join(", ")}`).toEqual(
    [],
  );
});

it("changes every kind between variants: each has a slot with two variants or more", () => {
  const unchanged = definitions
    .map((definition) => definition.kind)
    .filter((kind) => !SLOT_NAMES.some((name) => kindOf(name) === kind && variantCount(name) > 1));
  expect(unchanged, `kinds whose slots have a single variant: ${unchanged.join(", ")}`).toEqual([]);
});

it("edits every kind by hand", () => {
  const untouched = definitions.map((definition) => definition.kind).filter((kind) => !handEditable(kind));
  expect(untouched, `kinds with no edit by hand in test/model/model.ts (handCall): ${untouched.join(", ")}`).toEqual(
    [],
  );
});
