/** The records of the translations family's tables (declared in index.ts); routes render them (render.ts). */

/** A translation of a space into another language (`/orgs/{o}/translations`); its runs are settled by the clock. */
export interface TranslationRec {
  id: string;
  orgId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  /** The official `JSONDocument`, as the last POST or PUT sent it (an empty document when none was sent). */
  instructions: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When the latest run began (a create starts the first one). */
  runStartedAtMs: number;
  /** Completed runs, counted when a run is settled. */
  runs: number;
  /** `runStartedAtMs` of the latest settled run: equal to it once the latest run is completed. */
  settledRunAtMs?: number;
  /** The space the runs write into, made by the first completed run. */
  resultSpaceId?: string;
  resultRevision?: string;
}

/** An entry of an organization's translation glossary: a term by language code. */
export interface GlossaryEntryRec {
  id: string;
  orgId: string;
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}
