/**
 * The official JavaScript client (`GitBookAPI` of @gitbook/api, the package that also ships the OpenAPI document)
 * pointed at a test emulator: a second, independent user of the emulator. What these tests assert is what a real
 * client sees: statuses, bodies, headers and `GitBookAPIError`s.
 */
import { GitBookAPI, GitBookAPIError } from "@gitbook/api";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";

export interface OfficialClientFixture {
  emu: RunningEmulator;
  /** The official client with the emulator's token. */
  api: GitBookAPI;
  /** The official client with another token, or none. */
  clientWith(token: string | undefined): GitBookAPI;
  org(): string;
}

/** One emulator per file (validated like every test emulator), reset before each test. */
export function useOfficialClient(options: EmulatorOptions = {}): OfficialClientFixture {
  const f = {} as OfficialClientFixture;
  beforeAll(async () => {
    f.emu = await startTestEmulator(options);
    // The client appends /v1 to its endpoint, as for https://api.gitbook.com.
    f.api = new GitBookAPI({ endpoint: f.emu.origin, authToken: f.emu.token });
  });
  beforeEach(() => {
    f.emu.reset();
  });
  afterAll(async () => {
    await f.emu?.close();
  });
  f.clientWith = (token) => new GitBookAPI({ endpoint: f.emu.origin, authToken: token });
  f.org = () => f.emu.organizationId;
  return f;
}

/** The `GitBookAPIError` a call fails with (fails the test when it succeeds or fails otherwise). */
export async function apiError(call: Promise<unknown>): Promise<GitBookAPIError> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (error) {
    if (error instanceof GitBookAPIError) return error;
    throw error;
  }
  throw new Error(`expected a GitBookAPIError, the call succeeded with status ${(outcome as Response).status}`);
}

/**
 * Asserts the error a real client sees: the HTTP status as `code`, the API's `error.message` as `errorMessage`, and
 * the client's own message `GitBook API failed with [<status>] <url>: <errorMessage>`.
 */
export async function expectApiError(
  call: Promise<unknown>,
  status: number,
  message: RegExp,
): Promise<GitBookAPIError> {
  const error = await apiError(call);
  expect(error.name).toBe("GitBookAPIError");
  expect(error.code, error.message).toBe(status);
  expect(error.errorMessage).toMatch(message);
  expect(error.message).toBe(`GitBook API failed with [${status}] ${error.response.url}: ${error.errorMessage}`);
  return error;
}

/** Missing and wrong tokens: 401 with the error envelope's message, as the client reports it. */
export async function expectUnauthorized(f: OfficialClientFixture, call: (api: GitBookAPI) => Promise<unknown>) {
  await expectApiError(call(f.clientWith(undefined)), 401, /Authorization|token/i);
  await expectApiError(call(f.clientWith("not-the-token")), 401, /invalid bearer token/i);
}

/**
 * Calls `remove` twice, for the document's DELETE semantics: 205 when the call deleted the object, then 204 since it
 * is already gone.
 */
export async function expectDeleted(remove: () => Promise<{ status: number }>): Promise<void> {
  expect((await remove()).status, "first DELETE").toBe(205);
  expect((await remove()).status, "repeated DELETE").toBe(204);
}

interface Page<T> {
  data: { items: T[]; next?: { page: string }; count?: number };
}

/** Walks a list page by page through `next.page`; returns the items and the number of pages. */
export async function allPages<T>(
  fetchPage: (page: string | undefined) => Promise<Page<T>>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let page: string | undefined;
  for (let pages = 1; pages <= 100; pages++) {
    const { data } = await fetchPage(page);
    items.push(...data.items);
    page = data.next?.page;
    if (!page) return { items, pages };
  }
  throw new Error("pagination did not end after 100 pages");
}

/** `Location` of a 201, which the document gives as the API URL of the created object. */
export function locationOf(response: Response): string | null {
  return response.headers.get("location");
}
