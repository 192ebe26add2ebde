import { describe, expect, it } from "vitest";
import { BadRequestError, type HttpClient, ServerError } from "../../provider/client";
import type { CreatedCandidate, Found, KindDefinition, ResourceContext } from "../../provider/framework/kind";
import { Listings } from "../../provider/framework/listings";
import { CLOCK_SKEW_MS, createdSince, createWithoutDuplicates } from "../../provider/framework/recovery";

/**
 * createWithoutDuplicates on its own, with a kind whose create and lookup are scripted: which outcome of a lost
 * create leads to adopting, repeating or failing, and what each failure says. test/runtime/recovery.test.ts runs the
 * same against the emulator's kinds.
 */
const NOW = Date.parse("2026-11-23T12:00:00Z");
const SINCE = new Date(NOW - CLOCK_SKEW_MS);

/** A lost response: the API may have made the object. */
function lost(): ServerError {
  return new ServerError({ method: "POST", path: "/v1/orgs/o/things", status: 502, attempts: 1, outcomeUnknown: true });
}

function scripted(options: {
  creates: (Error | "ok")[];
  finds?: (CreatedCandidate[] | Error | string)[];
  withoutFindCreated?: boolean;
  maxAttempts?: number;
}) {
  const calls: string[] = [];
  const sinces: Date[] = [];
  let creates = 0;
  let finds = 0;
  const definition = {
    kind: "Thing",
    idFormat: "the thing's id",
    create: async () => {
      calls.push("create");
      const outcome = options.creates[creates++];
      if (outcome === undefined) throw new Error("more creates than scripted");
      if (outcome !== "ok") throw outcome;
      return { id: `made${creates}`, state: { title: "T" } };
    },
    findCreated: options.withoutFindCreated
      ? undefined
      : async (_ctx: ResourceContext, _inputs: unknown, since: Date) => {
          calls.push("find");
          sinces.push(since);
          const outcome = options.finds?.[finds++];
          if (outcome === undefined) throw new Error("more lookups than scripted");
          if (Array.isArray(outcome)) return outcome;
          throw outcome;
        },
  } as unknown as KindDefinition;
  const ctx = {
    client: { policy: { maxAttempts: options.maxAttempts ?? 3 } } as HttpClient,
    listings: new Listings(),
  };
  const adopt = async (id: string): Promise<Found<Record<string, unknown>>> => {
    calls.push(`adopt ${id}`);
    return { id, state: { adopted: true } };
  };
  const run = () => createWithoutDuplicates(definition, ctx, { title: "T" }, adopt, () => NOW);
  return { run, calls, sinces };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );

describe("createdSince", () => {
  const since = new Date("2026-11-23T11:58:00Z");
  it("counts an object made at or after `since`, or whose time is unknown", () => {
    expect(createdSince("2026-11-23T11:58:00.000Z", since)).toBe(true);
    expect(createdSince("2026-11-23T11:59:00Z", since)).toBe(true);
    expect(createdSince("2026-11-23T11:57:59.999Z", since)).toBe(false);
    expect(createdSince(undefined, since)).toBe(true);
    expect(createdSince(null, since)).toBe(true);
    expect(createdSince("", since)).toBe(true);
    expect(createdSince("not a date", since)).toBe(true);
  });
});

describe("createWithoutDuplicates", () => {
  it("a create that succeeds is never looked for", async () => {
    const thing = scripted({ creates: ["ok"] });
    expect(await thing.run()).toEqual({ id: "made1", state: { title: "T" } });
    expect(thing.calls).toEqual(["create"]);
  });

  it("a definite failure is thrown as it is, unlooked for", async () => {
    const refused = new BadRequestError({ method: "POST", path: "/v1/x", status: 400, attempts: 1 });
    const thing = scripted({ creates: [refused] });
    expect(await failureOf(thing.run())).toBe(refused);
    expect(thing.calls).toEqual(["create"]);
  });

  it("a kind that cannot look for its objects throws the lost create as it is", async () => {
    const error = lost();
    const thing = scripted({ creates: [error], withoutFindCreated: true });
    expect(await failureOf(thing.run())).toBe(error);
    expect(error.message).toBe("POST /v1/orgs/o/things failed with 502 Bad Gateway");
    expect(thing.calls).toEqual(["create"]);
  });

  it("one object made since the create began (less the clock skew) is adopted", async () => {
    const thing = scripted({ creates: [lost()], finds: [[{ id: "t9", title: "T" }]] });
    expect(await thing.run()).toEqual({ id: "t9", state: { adopted: true } });
    expect(thing.calls).toEqual(["create", "find", "adopt t9"]);
    expect(thing.sinces).toEqual([SINCE]);
    expect(CLOCK_SKEW_MS).toBe(120_000);
  });

  it("none: the create is repeated, and the second one's object kept", async () => {
    const thing = scripted({ creates: [lost(), "ok"], finds: [[]] });
    expect(await thing.run()).toEqual({ id: "made2", state: { title: "T" } });
    expect(thing.calls).toEqual(["create", "find", "create"]);
  });

  it("none every time: gives up after the client's attempts, saying nothing was left behind", async () => {
    const thing = scripted({ creates: [lost(), lost(), lost()], finds: [[], [], []], maxAttempts: 3 });
    const error = await failureOf(thing.run());
    expect(error.message).toBe(
      "POST /v1/orgs/o/things failed with 502 Bad Gateway; the API made no Thing either (looked 3 times), so " +
        "nothing is left behind",
    );
    expect(thing.calls).toEqual(["create", "find", "create", "find", "create", "find"]);
    // Every lookup looks from the first attempt's start.
    expect(thing.sinces).toEqual([SINCE, SINCE, SINCE]);
  });

  it("a client allowing no retries still makes one attempt", async () => {
    const thing = scripted({ creates: [lost()], finds: [[]], maxAttempts: 0 });
    expect((await failureOf(thing.run())).message).toContain("(looked 1 times)");
    expect(thing.calls).toEqual(["create", "find"]);
  });

  it("several: fails naming each, when they were made and how to adopt one", async () => {
    const cause = lost();
    const thing = scripted({
      creates: [cause],
      finds: [
        [
          { id: "t1", title: "One" },
          { id: "t2", title: "Two" },
        ],
      ],
    });
    const error = await failureOf(thing.run());
    expect(error.message).toBe(
      "Thing create: the response was lost (POST /v1/orgs/o/things failed with 502 Bad Gateway), and 2 Things that " +
        'it may have made exist (made since 2026-11-23T11:58:00.000Z): "t1" ("One"), "t2" ("Two"). Set importId to ' +
        "the one this resource should manage (the thing's id), delete the others, and run `pulumi up` again.",
    );
    expect(error.cause).toBe(cause);
    expect(thing.calls).toEqual(["create", "find"]);
  });

  it("a lookup that fails too is told, with the way out", async () => {
    const cause = lost();
    const thing = scripted({ creates: [cause], finds: [new Error("GET /v1/orgs/o/things failed with 503")] });
    const error = await failureOf(thing.run());
    // A new error about the same failure: the one the create threw is left as it was.
    expect(error.cause).toBe(cause);
    expect(error.message).toBe(
      "POST /v1/orgs/o/things failed with 502 Bad Gateway; the API may have made it, and looking for it failed too " +
        "(GET /v1/orgs/o/things failed with 503): look for it and adopt it with importId (the thing's id), or run " +
        "`pulumi up` again",
    );
    const odd = scripted({ creates: [lost()], finds: ["a string"] });
    expect((await failureOf(odd.run())).message).toContain("looking for it failed too (a string)");
  });
});
