import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../provider/client";
import { undoOnFailure } from "../../provider/framework/cleanup";

const failing = () => Promise.reject(new Error("PATCH failed"));
const messageOf = (run: Promise<unknown>) =>
  run.then(
    () => expect.fail("the steps should have failed"),
    (error: Error) => error.message,
  );

describe("undoOnFailure: a create that fails after its POST removes what it made, and says so", () => {
  it("returns the steps' result and never undoes when they succeed", async () => {
    let undone = false;
    const result = await undoOnFailure(
      { kind: "Widget", id: "w1" },
      async () => (undone = true),
      async () => 42,
    );
    expect(result).toBe(42);
    expect(undone).toBe(false);
  });

  it("names the object by id, and by title only when the title says more than the id", async () => {
    const titled = await messageOf(undoOnFailure({ kind: "Widget", id: "w1", title: "Docs" }, async () => {}, failing));
    expect(titled).toBe('PATCH failed; the new Widget "w1" ("Docs") was removed again');
    const same = await messageOf(undoOnFailure({ kind: "Widget", id: "/old", title: "/old" }, async () => {}, failing));
    expect(same).toBe('PATCH failed; the new Widget "/old" was removed again');
  });

  it("says why the object was kept, and how to adopt it", async () => {
    const kept = await messageOf(undoOnFailure({ kind: "Widget", id: "w1" }, async () => "it holds content", failing));
    expect(kept).toBe('PATCH failed; the new Widget "w1" was kept (it holds content): adopt it with importId "w1"');
  });

  it("reads a 404 of the removal as the object gone already, and any other failure as left behind", async () => {
    const gone = new NotFoundError({ method: "DELETE", path: "/v1/widgets/w1", status: 404, attempts: 1 });
    const removed = await messageOf(undoOnFailure({ kind: "Widget", id: "w1" }, () => Promise.reject(gone), failing));
    expect(removed).toBe('PATCH failed; the new Widget "w1" was removed again');
    const refused = () => Promise.reject(new Error("403 Forbidden"));
    const left = await messageOf(undoOnFailure({ kind: "Widget", id: "w1" }, refused, failing));
    expect(left).toBe(
      'PATCH failed; removing the new Widget "w1" failed too (403 Forbidden): adopt it with importId "w1" or delete it',
    );
  });
});
