import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { restoreEnvAfterEach, runCli, stateFile, stateResource, useTempDirs } from "../support/cli";
import { useEmulator } from "../support/emulator";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-drift-");
restoreEnvAfterEach("PATH", "DOCS_ORGANIZATION_ID");
const AUDIT_ROUTE = "GET /v1/orgs/{organizationId}/audit-events";

/**
 * `drift`'s bad input without the real CLI (test/e2e/drift.test.ts runs it): a `pulumi` on the PATH answers
 * `stack export`, `stack history`, `stack --show-name` and `preview` from files, or fails where a file is missing,
 * and logs every call.
 */
let dir: string;
const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
const siteUrn = "urn:pulumi:production::docs::pulumi-nodejs:dynamic/docs:Site::docs";
const calls = () => {
  const log = path.join(dir, "calls.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
};
const history = (entries: object[]) => writeFileSync(path.join(dir, "history.json"), JSON.stringify(entries));
const update = (result: string, startAgo: number, endAgo: number, version = 0) => ({
  version,
  kind: "update",
  result,
  startTime: iso(startAgo),
  endTime: iso(endAgo),
});

/** A stack with one site, edited by hand in the app by Grace after its update. */
async function editedSite() {
  const site = await fx.makeSite({ title: "Docs" });
  stateFile(dir, [
    stateResource("Site", site, {
      urn: siteUrn,
      inputs: { organizationId: fx.org(), title: "Docs" },
      outputs: { organizationId: fx.org(), title: "Docs" },
    }),
  ]);
  const headers = { "x-emulator-actor": "grace@example.com", "x-emulator-source": "ui" };
  await fx.call("PATCH", `/orgs/${fx.org()}/sites/${site}`, { title: "Edited" }, { headers });
  const step = {
    op: "update",
    urn: siteUrn,
    oldState: {
      id: site,
      type: "pulumi-nodejs:dynamic/docs:Site",
      inputs: { organizationId: fx.org(), title: "Edited" },
    },
    newState: { type: "pulumi-nodejs:dynamic/docs:Site", inputs: { organizationId: fx.org(), title: "Docs" } },
  };
  writeFileSync(path.join(dir, "preview.json"), JSON.stringify({ steps: [step] }));
  return site;
}

beforeEach(() => {
  dir = tempDir();
  const script = path.join(dir, "pulumi");
  writeFileSync(
    script,
    `#!/bin/sh
echo "$*" >> "${dir}/calls.log"
answer() { if [ -f "${dir}/$1" ]; then cat "${dir}/$1"; elif [ -f "${dir}/backend-down" ]; then echo "error: could not reach the backend: connection refused" >&2; exit 255; else echo "error: no stack named 'production' found" >&2; exit 255; fi; }
case "$1 $2" in
  "stack export") answer state.json ;;
  "stack history") answer history.json ;;
  "stack --show-name") echo production ;;
  "preview --refresh") answer preview.json ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(script, 0o755);
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
  delete process.env.DOCS_ORGANIZATION_ID;
});

describe("docs-platform drift's bad input", () => {
  it("on a stack never updated, says so, runs no preview and still reports unmanaged objects", async () => {
    const team = await fx.makeTeam("Contractors");
    stateFile(dir, []);
    history([]);
    const run = await runCli(["drift", "--stack", "production", "--organization", fx.org()]);
    expect(run.code, run.stderr).toBe(EXIT.found);
    expect(run.stdout).toContain("Note: Stack production was never updated successfully");
    expect(run.stdout).toContain(`unmanaged: Team "Contractors" ${team}`);
    expect(run.stdout).toContain("not attributed");
    expect(calls().some((call) => call.startsWith("preview"))).toBe(false);
  });

  it("without a stack, says so and reports unmanaged objects of --organization; without either, is a usage error", async () => {
    await fx.makeTeam("Contractors");
    const run = await runCli(["drift", "--stack", "production", "--organization", fx.org(), "--json"]);
    expect(run.code, run.stderr).toBe(EXIT.found);
    const report = JSON.parse(run.stdout);
    expect(report.notes[0]).toMatch(/^No stack to compare with \(`pulumi stack export .*\): only unmanaged objects/);
    expect(report.stack).toBe("production");
    expect(report.summary).toEqual({ changed: 0, deleted: 0, unmanaged: 1 });
    const without = await runCli(["drift", "--stack", "production"]);
    expect(without.code).toBe(EXIT.usage);
    expect(without.stderr).toContain("--organization is required (or set DOCS_ORGANIZATION_ID): there is no stack");
  });

  it("fails (exit 1) when the state cannot be read for another reason than a missing stack: never a clean report", async () => {
    writeFileSync(path.join(dir, "backend-down"), "");
    const run = await runCli(["drift", "--stack", "production", "--organization", fx.org()]);
    expect(run.code).toBe(EXIT.failure);
    expect(run.stderr).toContain("could not reach the backend");
    expect(run.stdout).not.toContain("No stack to compare with");
  });

  it("after a failed update, starts at the last successful one and says which", async () => {
    const site = await editedSite();
    history([update("failed", 20, 10, 3), update("succeeded", 60, 50, 2)]);
    const run = await runCli(["drift", "--stack", "production"]);
    expect(run.code, run.stderr).toBe(EXIT.found);
    expect(run.stdout).toMatch(
      /Note: The last update, update #3 of \S+, failed: the window starts at the last successful one, update #2 of/,
    );
    expect(run.stdout).toContain(`changed: Site "docs" ${site}`);
    expect(run.stdout).toContain('  title: "Docs" → "Edited"');
    expect(run.stdout).toMatch(/ {2}by: \S+ {2}grace@example\.com \(user\) from ui: site\.updated/);
  });

  it("when the audit trail is refused (403) or rate-limited past the retries, says so once and still reports", async () => {
    await editedSite();
    history([update("succeeded", 60, 50)]);
    fx.emulator.injectFault({ method: "GET", path: "/audit-events$", count: 1, status: 403 });
    const refused = await runCli(["drift", "--stack", "production"]);
    expect(refused.code).toBe(EXIT.found);
    expect(refused.stdout.match(/may not read the audit trail/g), refused.stdout + refused.stderr).toHaveLength(1);
    expect(refused.stdout).toContain('  title: "Docs" → "Edited"');
    fx.emulator.injectFault({ method: "GET", path: "/audit-events$", count: 11, status: 429, retryAfter: "0" });
    fx.emulator.clearRequests();
    const limited = await runCli(["drift", "--stack", "production", "--json"]);
    expect(limited.code).toBe(EXIT.found);
    const report = JSON.parse(limited.stdout);
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(/^Not attributed: the audit trail of organization \S+ could not be read/);
    expect(report.findings[0].attribution).toBe("unavailable");
    // The client's waits on 429 (10), then no more: the listing is not repeated.
    expect(fx.emulator.counters()[AUDIT_ROUTE]).toBe(11);
  });

  it("says changed outside the recorded window for a finding with no event since the update", async () => {
    await editedSite();
    // The update ended after the hand edit: the edit is outside the window.
    history([update("succeeded", -1, -5)]);
    const run = await runCli(["drift", "--stack", "production"]);
    expect(run.code).toBe(EXIT.found);
    expect(run.stdout).toContain("  by: changed outside the recorded window");
  });

  it("refuses --markdown with --json, and an unknown option, as usage errors", async () => {
    expect((await runCli(["drift", "--markdown", "--json"])).code).toBe(EXIT.usage);
    expect((await runCli(["drift", "--colour"])).code).toBe(EXIT.usage);
    expect((await runCli(["drift", "--help"])).stdout).toContain("Usage: docs-platform drift");
  });
});
