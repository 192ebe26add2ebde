import { allPagesOf } from "../../emulator/families/content/spacePages";
import type { EmulatorFixture } from "./emulator";

/** The id of the page at `path` in a space of the emulator (every space holds the same tree: emulator/spacePages.ts). */
export function pageIdAt(fixture: EmulatorFixture, spaceId: string, path: string): string {
  const space = fixture.emulator.store.spaces.get(spaceId);
  const page = space && allPagesOf(space).find((p) => p.path === path);
  if (!page) throw new Error(`no page "${path}" in space "${spaceId}"`);
  return page.id;
}
