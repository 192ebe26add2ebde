/**
 * Translations and the translation glossary. A translation's run is simulated by the clock: `pending` for one step
 * (`stepMs`, EmulatorOptions.translationStepMs, default 0: at once), `running` for a second, then `completed`; a
 * create starts the first run and `…/run` starts another. A
 * completed run is settled lazily when the translation is read (no timers): the first one makes the result space (a
 * new space of the organization, titled after the source space and the language), every one gives it a new revision
 * and counts in `stats`. Deleting a translation leaves its result space. The glossary's batch is validated whole
 * before anything changes; `update` replaces an entry's translations. Where the official document is silent these
 * choices add no 400 of their own (no rule on the languages of a translation, none on an id named twice in a batch). Composed over the tables like every store
 * (store.ts).
 */
import { BadRequestError } from "../../errors";
import type { Tables } from "../../tables";
import type { SpaceRec } from "../content/records";
import type { GlossaryEntryRec, TranslationRec } from "./records";

export type TranslationStatus = "pending" | "running" | "completed";

export type GlossaryOperation =
  | { type: "insert"; translations: Record<string, string> }
  | { type: "update"; id: string; translations: Record<string, string> }
  | { type: "delete"; id: string };

/** What a completed run counts per run, for the official `stats` (the emulator translates nothing). */
export const WORDS_PER_RUN = 100;
export const PAGES_PER_RUN = 1;

export class TranslationStore {
  private readonly tables: Tables;
  /** Makes the result space (Store.createSpace, which owns spaces). */
  private readonly createSpace: (orgId: string, title: string, language: string) => SpaceRec;
  /** Time per run step. */
  readonly stepMs: number;

  constructor(tables: Tables, createSpace: TranslationStore["createSpace"], stepMs: number) {
    this.tables = tables;
    this.createSpace = createSpace;
    this.stepMs = stepMs;
  }

  translationsOf(orgId: string): TranslationRec[] {
    const all = [...this.tables.translations.values()].filter((t) => t.orgId === orgId);
    for (const t of all) this.settle(t);
    return all;
  }

  translation(orgId: string, id: string): TranslationRec | undefined {
    const t = this.tables.translations.get(id);
    if (!t || t.orgId !== orgId) return undefined;
    this.settle(t);
    return t;
  }

  /** A new translation, its first run started. The source space must be a live space of the organization. */
  createTranslation(
    orgId: string,
    fields: { sourceSpaceId: string; sourceLanguage: string; language: string; instructions?: Record<string, unknown> },
  ): TranslationRec {
    const space = this.tables.spaces.get(fields.sourceSpaceId);
    if (!space || space.deletedAt || space.orgId !== orgId) {
      throw new BadRequestError(`source.space: space "${fields.sourceSpaceId}" not found in organization "${orgId}"`);
    }
    const nowMs = this.tables.clock();
    const now = new Date(nowMs).toISOString();
    const translation: TranslationRec = {
      id: this.tables.newId(),
      orgId,
      sourceSpaceId: fields.sourceSpaceId,
      sourceLanguage: fields.sourceLanguage,
      language: fields.language,
      instructions: fields.instructions ?? { object: "document", data: {}, nodes: [] },
      createdAt: now,
      updatedAt: now,
      runStartedAtMs: nowMs,
      runs: 0,
    };
    this.tables.translations.set(translation.id, translation);
    this.settle(translation);
    return translation;
  }

  setInstructions(translation: TranslationRec, instructions: Record<string, unknown>): TranslationRec {
    translation.instructions = instructions;
    translation.updatedAt = this.tables.now();
    return translation;
  }

  /** Starts a new run; one still under way completes first, so that every run is counted and has a result. */
  run(translation: TranslationRec): void {
    const nowMs = this.tables.clock();
    if (!this.completedRun(translation)) this.complete(translation);
    translation.runStartedAtMs = nowMs;
    translation.updatedAt = new Date(nowMs).toISOString();
    this.settle(translation);
  }

  deleteTranslation(id: string): boolean {
    return this.tables.remove("translations", id);
  }

  status(translation: TranslationRec): TranslationStatus {
    if (this.completedRun(translation)) return "completed";
    const elapsed = this.tables.clock() - translation.runStartedAtMs;
    return elapsed < this.stepMs ? "pending" : elapsed < 2 * this.stepMs ? "running" : "completed";
  }

  /** Whether the latest run has been settled (its result space and counts recorded). */
  private completedRun(translation: TranslationRec): boolean {
    return translation.settledRunAtMs === translation.runStartedAtMs;
  }

  private settle(translation: TranslationRec): void {
    if (this.completedRun(translation)) return;
    if (this.tables.clock() >= translation.runStartedAtMs + 2 * this.stepMs) this.complete(translation);
  }

  private complete(translation: TranslationRec): void {
    const result = translation.resultSpaceId && this.tables.spaces.get(translation.resultSpaceId);
    if (!result || result.deletedAt) {
      const source = this.tables.spaces.get(translation.sourceSpaceId);
      const title = `${source?.title ?? "Space"} (${translation.language})`;
      translation.resultSpaceId = this.createSpace(translation.orgId, title, translation.language).id;
    }
    translation.resultRevision = this.tables.newId();
    translation.runs += 1;
    translation.settledRunAtMs = translation.runStartedAtMs;
  }

  // -------------------------------------------------------------------------------------------------------------
  // The glossary

  glossaryOf(orgId: string): GlossaryEntryRec[] {
    return [...this.tables.glossaryEntries.values()].filter((e) => e.orgId === orgId);
  }

  glossaryEntry(orgId: string, id: string): GlossaryEntryRec | undefined {
    const entry = this.tables.glossaryEntries.get(id);
    return entry && entry.orgId === orgId ? entry : undefined;
  }

  /**
   * Applies a batch in order, after checking all of it: an id that is not an entry of the organization when its
   * operation comes (never one, or deleted by an earlier operation of the batch) fails the batch (400) and nothing
   * changes.
   */
  applyGlossaryBatch(orgId: string, operations: readonly GlossaryOperation[]): void {
    const deleted = new Set<string>();
    operations.forEach((operation, index) => {
      if (operation.type === "insert") return;
      if (!this.glossaryEntry(orgId, operation.id) || deleted.has(operation.id)) {
        throw new BadRequestError(
          `operations[${index}].id: glossary entry "${operation.id}" not found in organization "${orgId}"`,
        );
      }
      if (operation.type === "delete") deleted.add(operation.id);
    });
    const now = this.tables.now();
    for (const operation of operations) {
      if (operation.type === "delete") {
        this.tables.remove("glossaryEntries", operation.id);
      } else if (operation.type === "update") {
        const entry = this.tables.glossaryEntries.get(operation.id)!;
        entry.translations = { ...operation.translations };
        entry.updatedAt = now;
      } else {
        const id = this.tables.newId();
        const entry = { id, orgId, translations: { ...operation.translations }, createdAt: now, updatedAt: now };
        this.tables.glossaryEntries.set(id, entry);
      }
    }
  }
}
