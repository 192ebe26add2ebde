import { describe, expect, it } from "vitest";
import { withoutStackTrace } from "../../provider/framework/explain";
import { dropHostEchoes, EXPLAINED_STACK, isHostEcho } from "../../provider/framework/hostEcho";

/** A console whose error lines are kept, as the provider host's stderr would show them. */
function fakeConsole() {
  const lines: unknown[][] = [];
  const target = { error: (...args: unknown[]) => void lines.push(args) };
  return { target, lines };
}

/** The provider host's copy of a failed call (`cmd/dynamic-provider/index.js`: `console.error(`${e}: ${e.stack}`)`). */
const hostCopy = (error: Error) => `${error}: ${error.stack}`;

describe("the provider host's second copy of an error", () => {
  it("is dropped for an error this package explained; anything else still prints", () => {
    const { target, lines } = fakeConsole();
    dropHostEchoes(target);
    const explained = withoutStackTrace(new Error('Collection "abc" read: GET /v1/x failed with 401 Unauthorized'));
    target.error(hostCopy(explained));
    const defect = withoutStackTrace(new TypeError("x is not a function"));
    target.error(hostCopy(defect));
    target.error("Error: plain: at somewhere");
    target.error("two", "arguments");
    expect(lines).toEqual([[hostCopy(defect)], ["Error: plain: at somewhere"], ["two", "arguments"]]);
  });

  it("wraps console.error once however often the provider is configured", () => {
    const { target, lines } = fakeConsole();
    dropHostEchoes(target);
    const once = target.error;
    dropHostEchoes(target);
    expect(target.error).toBe(once);
    target.error("kept");
    expect(lines).toEqual([["kept"]]);
  });

  it("recognizes only the mark at the end of a single string", () => {
    expect(isHostEcho([`Error: x: ${EXPLAINED_STACK}`])).toBe(true);
    expect(isHostEcho([`Error: x: ${EXPLAINED_STACK} and more`])).toBe(false);
    expect(isHostEcho([`Error: x:${EXPLAINED_STACK}`])).toBe(false);
    expect(isHostEcho([`Error: x: ${EXPLAINED_STACK}`, "second"])).toBe(false);
    expect(isHostEcho([new Error("x")])).toBe(false);
    expect(isHostEcho([])).toBe(false);
  });
});
