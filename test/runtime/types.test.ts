import type * as pulumi from "@pulumi/pulumi";
import { expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type * as docs from "../../provider";
import type { RegisteredKinds } from "../../provider/registry";
import type { collectionKind } from "../../provider/resources/collection";
import type { RegisteredClasses } from "../../provider/resources/generated";

/** What a kind's state schema says its outputs are. */
type StateOf<K> = K extends { state: z.ZodType<infer S, unknown> } ? S : never;
/** What a kind's input schema produces (its output side: defaults filled in). */
type InputsOf<K> = K extends { inputs: z.ZodType<infer I, unknown> } ? I : never;
/** What the generated class declares: its Output properties, without the id and urn every resource has. */
type DeclaredOutputs<C> = {
  -readonly [K in keyof C as K extends "id" | "urn"
    ? never
    : C[K] extends pulumi.OutputInstance<unknown>
      ? K
      : never]: C[K] extends pulumi.OutputInstance<infer T> ? T : never;
};
/** Every value a program's input can become, for the outputs that echo an input. */
type Echoed<K> = { [P in keyof StateOf<K> & keyof InputsOf<K>]-?: Exclude<InputsOf<K>[P], undefined> };

/** Whether two types are the same (the identity check expect-type uses). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** How a class's outputs sit between its kind's schemas; every check `true` when they fit. */
type Bounds<K, C> = {
  /** It declares each output of the state, no more. */
  sameKeys: Same<keyof DeclaredOutputs<C>, keyof StateOf<K>>;
  /** Each at most as wide as the state schema allows: what older states hold still fits. */
  withinState: DeclaredOutputs<C> extends StateOf<K> ? true : false;
  /** Each echoing an input at least as wide as the input: every declared value reads back. */
  admitsInputs: Echoed<K> extends Pick<DeclaredOutputs<C>, keyof Echoed<K> & keyof DeclaredOutputs<C>> ? true : false;
};
type Fits = { sameKeys: true; withinState: true; admitsInputs: true };

/** A kind's verdict: the customization kinds' states keep any declared section (a loose object), so theirs is one bound. */
type Verdict<K, C> = C extends docs.SiteCustomization | docs.SiteSpaceCustomization
  ? DeclaredOutputs<C> extends StateOf<K>
    ? Fits
    : { withinState: false }
  : Bounds<K, C>;
/** The positions of a tuple (`"0"`, `"1"`, …), without the array's methods. */
type Positions<T extends readonly unknown[]> = Exclude<keyof T, keyof (readonly unknown[])>;
/** The registry positions whose class does not fit its kind (`never` when all do), e.g. `"23"`: `definitions[23]`. */
type Misfits = {
  [I in Positions<RegisteredKinds>]: Same<
    Verdict<RegisteredKinds[I], RegisteredClasses[I & keyof RegisteredClasses]>,
    Fits
  > extends true
    ? never
    : I;
}[Positions<RegisteredKinds>];

/**
 * Compile-time proof (tsc checks this file; `npm run typecheck`) that no generated class can drift from its kind's
 * schemas: every kind of the registry, with no list of them here.
 */
it("types each class's outputs between its input and its state schema", () => {
  expectTypeOf<RegisteredClasses["length"]>().toEqualTypeOf<RegisteredKinds["length"]>();
  expectTypeOf<Misfits>().toEqualTypeOf<never>();
});

it("types an output that echoes an input as exactly as the input", () => {
  type Level = "read" | "comment" | "review" | "edit" | "create" | "admin" | "inherit";
  // The state reads any string (a level the API adds later); the class says what a program can declare, and `null`.
  expectTypeOf<docs.Collection["defaultLevel"]>().toEqualTypeOf<pulumi.Output<Level | null>>();
  expectTypeOf<DeclaredOutputs<docs.Collection>["defaultLevel"]>().toEqualTypeOf<
    Exclude<InputsOf<typeof collectionKind>["defaultLevel"], undefined>
  >();
  // Not declared, the role reads as the API's default member role: still one of the two.
  expectTypeOf<docs.TeamMember["role"]>().toEqualTypeOf<pulumi.Output<"owner" | "member">>();
  // A language left out reads `null`, which the argument does not take.
  expectTypeOf<DeclaredOutputs<docs.Space>["language"]>().toEqualTypeOf<docs.Language | null>();
  expectTypeOf<DeclaredOutputs<docs.SpacePermission>["role"]>().toEqualTypeOf<docs.Role>();
});

it("accepts Outputs at any depth of an argument, an Output of a whole union included", () => {
  const enabled = {} as pulumi.Output<boolean>;
  const theme = {} as pulumi.Output<docs.StylingTheme>;
  const color = {} as pulumi.Output<string>;
  const args: docs.SiteCustomizationArgs = {
    siteId: "site",
    feedback: { enabled },
    styling: { theme, primaryColor: { light: color, dark: "#000000" } },
    header: { links: [{ title: "Status", to: { kind: "url", url: color } }] },
  };
  expectTypeOf(args).toExtend<docs.SiteCustomizationArgs>();
  // @ts-expect-error a section's field keeps its type through the Outputs
  const wrong: docs.SiteCustomizationArgs = { siteId: "site", styling: { theme: "loud" } };
  expectTypeOf(wrong).toExtend<docs.SiteCustomizationArgs>();
});
