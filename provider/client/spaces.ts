import { z } from "zod";
import { GitSyncStateSchema } from "./gitSync";
import { type ApiMergeRules, MergeRulesSchema } from "./organization";
import { listAll } from "./pagination";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/** The official document's `SpaceEditMode`. */
export const SPACE_EDIT_MODES = ["live", "locked"] as const;

/** The official document's `TranslationLanguage`: the languages a space's content may be written in. */
export const SPACE_LANGUAGES = [
  "en",
  "fr",
  "de",
  "es",
  "it",
  "pt",
  "pt-br",
  "ru",
  "ja",
  "zh",
  "zh-tw",
  "yue",
  "ko",
  "ar",
  "hi",
  "nl",
  "pl",
  "tr",
  "sv",
  "no",
  "da",
  "fi",
  "el",
  "cs",
  "hu",
  "ro",
  "th",
  "vi",
  "id",
  "ms",
  "he",
  "uk",
  "sk",
  "bg",
  "hr",
  "lt",
  "lv",
  "et",
  "sl",
] as const;

export const SpaceSchema = z.object({
  id: z.string(),
  title: z.string().default(""),
  emoji: z.string().nullish(),
  visibility: z.string().optional(),
  editMode: z.string().optional(),
  organization: z.string(),
  parent: z.string().nullish(),
  language: z.string().nullish(),
  /** A role, `inherit` or null (no default access). */
  defaultLevel: z.string().nullish(),
  mergeRules: MergeRulesSchema.nullish(),
  /** The Git Sync installation syncing it (the official `GitSyncState`), if any. */
  gitSync: GitSyncStateSchema.nullish(),
  createdAt: z.string().optional(),
  urls: z
    .object({ location: z.string(), app: z.string(), published: z.string(), icon: z.string() })
    .partial()
    .optional(),
});
export type ApiSpace = z.infer<typeof SpaceSchema>;

/** The fields `POST /orgs/{organizationId}/spaces` takes (the official `CreateSpace`, without templates). */
export interface SpaceCreate {
  title: string;
  emoji?: string;
  parent?: string;
  language?: string;
  editMode?: string;
  /** Official `ComputedContentSourceRevision`: set only here, and the Space object never reports it back. */
  computedSource?: ComputedSourceBody;
}

export type ComputedSourceBody =
  | {
      type: "builtin:openapi";
      props: { models: boolean; grouping?: "by-tag" | "by-operation"; downloadLink?: boolean };
      dependencies: { spec: { ref: { kind: "openapi"; spec: string } } };
    }
  | {
      type: "builtin:translation";
      props: Record<string, never>;
      dependencies: { translation: { ref: { kind: "translation"; translation: string } } };
    };

/** The official `PATCH /spaces/{spaceId}` body: `emoji` and `icon` exclude each other; both `null` remove either. */
export interface SpacePatch {
  title?: string;
  editMode?: string;
  defaultLevel?: string | null;
  language?: string;
  emoji?: string | null;
  icon?: string | null;
  mergeRules?: ApiMergeRules;
}

/** The organization's spaces: listed (every space, those in collections too) and created here. */
export function spacesPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/spaces`;
}

export function listSpaces(client: HttpClient, organizationId: string): Promise<ApiSpace[]> {
  return listAll(client, spacesPath(organizationId), {}, SpaceSchema);
}

export function spacePath(id: string): string {
  return `/spaces/${encodeURIComponent(id)}`;
}

export function getSpace(client: HttpClient, id: string): Promise<ApiSpace> {
  return call(client, SpaceSchema, "GET", spacePath(id));
}

export function createSpace(client: HttpClient, organizationId: string, body: SpaceCreate): Promise<ApiSpace> {
  return call(client, SpaceSchema, "POST", spacesPath(organizationId), { body });
}

export function updateSpace(client: HttpClient, id: string, patch: SpacePatch): Promise<ApiSpace> {
  return call(client, SpaceSchema, "PATCH", spacePath(id), { body: patch });
}

/** `parent: null` moves the space to the organization's top level. */
export function moveSpace(client: HttpClient, id: string, parent: string | null): Promise<ApiSpace> {
  // A move to where the space already is changes nothing: a lost answer is retried.
  return call(client, SpaceSchema, "POST", `${spacePath(id)}/move`, { body: { parent }, idempotent: true });
}

/** The API keeps a deleted space for 7 days, during which `POST /spaces/{spaceId}/restore` brings it back. */
export function deleteSpace(client: HttpClient, id: string): Promise<void> {
  return client.delete(spacePath(id));
}
