import { afterEach, beforeEach, vi } from "vitest";
import { redirectLog } from "../../provider/framework/log";

/**
 * Collects what the provider logs during each test of the calling file, as `"<level>: <line>"`, and restores the
 * default log after it. The returned array is emptied in place before each test, so a file keeps one reference.
 */
export function captureLog(): string[] {
  const logged: string[] = [];
  let restore: () => void = () => {};
  beforeEach(() => {
    logged.length = 0;
    restore = redirectLog((level, line) => logged.push(`${level}: ${line}`));
  });
  afterEach(() => restore());
  return logged;
}

/**
 * Collects what the provider writes to stderr during each test of the calling file (notices and warnings, as the
 * CLI shows them), without printing it. The returned array is emptied in place before each test.
 */
export function captureStderr(): string[] {
  const written: string[] = [];
  beforeEach(() => {
    written.length = 0;
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return written;
}
