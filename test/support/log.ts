import { afterEach, beforeEach } from "vitest";
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
