/** Renders the content family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import { renderGitSyncState } from "../gitSync/render";
import type { CollectionRec, SpaceRec } from "./records";
import { DEFAULT_LAYOUT, type PageRec } from "./spacePages";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function spaceLocation(env: Env, id: string): string {
  return `${env.apiBase}/spaces/${enc(id)}`;
}

export function renderSpace(env: Env, store: Store, s: SpaceRec): Json {
  const out: Json = {
    object: "space",
    id: s.id,
    title: s.title,
    // Required by the official Space: `""` when the space has an icon or nothing.
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.deletedAt) out.deletedAt = s.deletedAt;
  out.editMode = s.editMode;
  if (s.type) out.type = s.type;
  out.mergeRules = s.mergeRules ?? { type: "inherit" };
  out.urls = {
    location: spaceLocation(env, s.id),
    app: `${env.appBase}/s/${enc(s.id)}/`,
    ...(s.icon ? { icon: s.icon } : {}),
  };
  out.organization = s.orgId;
  if (s.parentId) out.parent = s.parentId;
  if (s.language) out.language = s.language;
  out.revision = s.revision;
  out.defaultLevel = s.defaultLevel;
  out.comments = 0;
  out.changeRequests = 0;
  out.changeRequestsOpen = 0;
  out.changeRequestsDraft = 0;
  out.permissions = {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: true,
    comment: true,
    merge: true,
    review: true,
    installIntegration: true,
  };
  const gitSync = store.gitSyncStore.of({ type: "space", spaceId: s.id });
  if (gitSync) out.gitSync = renderGitSyncState(store, gitSync);
  return out;
}

export function collectionLocation(env: Env, id: string): string {
  return `${env.apiBase}/collections/${enc(id)}`;
}

export function renderCollection(env: Env, c: CollectionRec): Json {
  const out: Json = { object: "collection", id: c.id, title: c.title };
  if (c.description !== undefined) out.description = c.description;
  out.organization = c.orgId;
  if (c.parentId) out.parent = c.parentId;
  out.defaultLevel = c.defaultLevel;
  out.urls = { location: collectionLocation(env, c.id), app: `${env.appBase}/o/${enc(c.orgId)}/c/${enc(c.id)}/` };
  out.permissions = { view: true, admin: true, viewInviteLinks: true, create: true };
  return out;
}

/** The official `RevisionPageDocument` (an empty JSON document: the emulator models no content). */
export function renderPage(env: Env, space: SpaceRec, page: PageRec): Record<string, unknown> {
  return {
    id: page.id,
    title: page.title,
    kind: "sheet",
    type: "document",
    document: { object: "document", data: {}, nodes: [] },
    urls: { app: `${env.appBase}/s/${encodeURIComponent(space.id)}/${page.path}` },
    slug: page.slug,
    path: page.path,
    pages: page.pages.map((child) => renderPage(env, space, child)),
    layout: DEFAULT_LAYOUT,
    tags: [],
  };
}
