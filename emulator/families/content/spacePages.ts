/**
 * The pages of a space's current revision. The emulator models no content editing, so every space holds the same
 * small tree (a new space is not empty: the official `CreateSpace` has `empty: true` for "a completely empty space
 * (no page in it)"), with ids derived from the space and the path: stable across resets and processes, different in
 * every space, so a page id of one space names no page of another.
 */
import { BadRequestError } from "../../errors";
import { stableId } from "../../ids";
import type { SpaceRec } from "./records";

export interface PageRec {
  id: string;
  title: string;
  /** The page's slug in its parent. */
  slug: string;
  /** The complete path in the revision: the slugs from the top down, joined by `/`. */
  path: string;
  pages: PageRec[];
}

interface PageSeed {
  title: string;
  slug: string;
  pages?: PageSeed[];
}

const TREE: PageSeed[] = [
  { title: "Introduction", slug: "introduction" },
  { title: "Getting started", slug: "getting-started", pages: [{ title: "Quickstart", slug: "quickstart" }] },
  { title: "Reference", slug: "reference" },
];

function grow(space: SpaceRec, seeds: readonly PageSeed[], parentPath: string): PageRec[] {
  return seeds.map((seed) => {
    const path = parentPath ? `${parentPath}/${seed.slug}` : seed.slug;
    return {
      id: stableId(`page:${space.id}/${path}`),
      title: seed.title,
      slug: seed.slug,
      path,
      pages: grow(space, seed.pages ?? [], path),
    };
  });
}

/** The space's pages, top level first, each with its children. */
export function pagesOf(space: SpaceRec): PageRec[] {
  return grow(space, TREE, "");
}

/** Every page of the space, depth first. */
export function allPagesOf(space: SpaceRec): PageRec[] {
  const all: PageRec[] = [];
  const walk = (pages: PageRec[]) => {
    for (const page of pages) {
      all.push(page);
      walk(page.pages);
    }
  };
  walk(pagesOf(space));
  return all;
}

export function pageOf(space: SpaceRec, pageId: string): PageRec | undefined {
  return allPagesOf(space).find((page) => page.id === pageId);
}

/** The official `RevisionPageLayoutOptions` (every field required), as a new page has them. */
export const DEFAULT_LAYOUT = {
  width: "default",
  cover: true,
  coverSize: "hero",
  coverMask: "none",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

/** A site space's or section's `pageId` must name a page of the space it shows (400 naming the field otherwise). */
export function checkPageOf(space: SpaceRec, pageId: string | null | undefined, field: string): void {
  if (pageId == null || pageOf(space, pageId)) return;
  throw new BadRequestError(`${field}: page "${pageId}" not found in space "${space.id}"`);
}
