import { describe, expect, it } from "vitest";
import { closestName } from "../../provider/framework/explain";

/**
 * The "did you mean" of preflight (an integration's configuration keys) and of the policy pack's settings: the name
 * at most three edits away (insertions, deletions, substitutions), the nearest when several are.
 */
describe("closestName", () => {
  it.each([
    ["the same name", "region", ["region"], "region"],
    ["three substitutions", "aaaa", ["bbba"], "bbba"],
    ["four substitutions", "aaaa", ["bbbb"], undefined],
    ["three insertions", "ab", ["abxyz"], "abxyz"],
    ["four insertions", "ab", ["abwxyz"], undefined],
    ["three deletions", "abxyz", ["ab"], "ab"],
    ["four deletions", "abwxyz", ["ab"], undefined],
    ["from nothing, three letters", "", ["abc"], "abc"],
    ["from nothing, four letters", "", ["abcd"], undefined],
    ["to nothing, three letters", "abc", [""], ""],
    ["to nothing, four letters", "abcd", [""], undefined],
    ["one of each edit", "kitten", ["sitting"], "sitting"],
    ["a transposition counts two", "anonymzieIp", ["anonymizeIp"], "anonymizeIp"],
    ["no names at all", "region", [], undefined],
  ])("%s: %j among %j", (_case, word, names, expected) => {
    expect(closestName(word, names)).toBe(expected);
  });

  it("picks the nearest of several, wherever it is listed", () => {
    expect(closestName("sampleRat", ["sampleRates", "sampleRate", "region"])).toBe("sampleRate");
    expect(closestName("sampleRat", ["region", "sampleRate", "sampleRates"])).toBe("sampleRate");
    expect(closestName("kitten", ["sitting", "mitten"])).toBe("mitten");
  });
});
