/** A kind's own words for a change its diff found (provider/framework/changeNotes.ts), on a kind made up here. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ChangeNotes } from "../../provider/framework/changeNotes";
import type { Props } from "../../provider/framework/kind";

const state = z.object({ title: z.string(), position: z.number().default(1) });
type State = z.output<typeof state>;

/** Describes every call, so that a test sees what reached it: the parsed state, the news and the changed set. */
const kind = {
  state: state as z.ZodType<State, unknown>,
  describeChange: (id: string, olds: State, news: Props, changed: ReadonlySet<string>) =>
    `Widget "${id}": "${olds.title}" at ${olds.position} becomes "${String(news.title)}" (${[...changed].join(", ")})`,
};

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe("ChangeNotes", () => {
  afterEach(() => vi.restoreAllMocks());

  it("prints the kind's words for a change, with the old state as the kind reads it, once per operation", () => {
    const printed = captureStderr();
    const notes = new ChangeNotes();
    notes.noteChange(kind, "w1", { title: "Old" }, { title: "New" }, ["title"]);
    notes.noteChange(kind, "w1", { title: "Old" }, { title: "New" }, ["title"]);
    notes.noteChange(kind, "w2", { title: "Old", position: 2 }, { title: "New" }, ["title", "position"]);
    expect(printed).toEqual([
      'info: Widget "w1": "Old" at 1 becomes "New" (title)\n',
      'info: Widget "w2": "Old" at 2 becomes "New" (title, position)\n',
    ]);
    new ChangeNotes().noteChange(kind, "w1", { title: "Old" }, { title: "New" }, ["title"]);
    expect(printed).toHaveLength(3);
  });

  it("says nothing when no property changed, or when the kind has nothing to say", () => {
    const printed = captureStderr();
    const notes = new ChangeNotes();
    notes.noteChange(kind, "w1", { title: "Old" }, { title: "Old" }, []);
    notes.noteChange({ state: kind.state }, "w1", { title: "Old" }, { title: "New" }, ["title"]);
    notes.noteChange({ ...kind, describeChange: () => undefined }, "w1", { title: "Old" }, { title: "New" }, ["title"]);
    expect(printed).toEqual([]);
  });

  it("says nothing of a state the kind cannot read", () => {
    const printed = captureStderr();
    new ChangeNotes().noteChange(kind, "w1", { position: "first" }, { title: "New" }, ["title"]);
    expect(printed).toEqual([]);
  });
});
