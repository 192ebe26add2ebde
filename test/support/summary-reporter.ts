import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints, after vitest's own summary, one line per project and a plain closing line (`N passed, N failed`), so that
 * CI logs show how many end-to-end tests really ran.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, { passed: number; failed: number; skipped: number }>();
    for (const module of testModules) {
      const project = module.project.name || "tests";
      const count = counts.get(project) ?? { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
      counts.set(project, count);
    }
    const total = { passed: 0, failed: 0, skipped: 0 };
    const lines: string[] = [];
    for (const [project, count] of counts) {
      lines.push(`${project} tests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
      total.passed += count.passed;
      total.failed += count.failed;
      total.skipped += count.skipped;
    }
    lines.push(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    process.stdout.write(`\n${lines.join("\n")}\n`);
  }
}
