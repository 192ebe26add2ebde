import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The release workflow publishes exactly what `npm run release:dry` builds and checks (tools/release-artifacts.mjs),
 * only after the dry run passed, only for a tag that is the package's version, and never from a manual run.
 */
const repoRoot = path.resolve(__dirname, "../..");
const text = readFileSync(path.join(repoRoot, ".github/workflows/release.yml"), "utf8");
const workflow = parse(text);
type Step = { name?: string; run?: string; uses?: string; if?: string; env?: Record<string, string> };

/** How the workflow's shell steps spell the version. */
const SHELL_VERSION = ["$", "{VERSION}"].join("");

const load = async () => await import("../../tools/release-artifacts.mjs");

describe(".github/workflows/release.yml", () => {
  const dryRun: Step[] = workflow.jobs["dry-run"].steps;
  const publish = workflow.jobs.publish;
  const publishSteps: Step[] = publish.steps;

  it("runs on v* tags and by hand, and publishes only for a tag, after the dry run", () => {
    expect(workflow.on.push.tags).toEqual(["v*"]);
    expect(workflow.on).toHaveProperty("workflow_dispatch");
    expect(publish.needs).toBe("dry-run");
    expect(publish.if).toBe("github.event_name == 'push' && github.ref_type == 'tag'");
  });

  it("stops a tag that is not the package version, and stale generated files, before anything else", () => {
    const runs = dryRun.map((step) => step.run ?? step.uses ?? "");
    const tagCheck = runs.findIndex((run) => run.includes('"$GITHUB_REF_NAME" != "v$version"'));
    const docsCheck = runs.indexOf("npm run docs:check");
    const dry = runs.findIndex((run) => run.startsWith("npm run release:dry"));
    expect(tagCheck).toBeGreaterThanOrEqual(0);
    expect(dryRun[tagCheck]!.run).toMatch(/exit 1/);
    expect(docsCheck).toBeGreaterThan(tagCheck);
    expect(dry).toBeGreaterThan(docsCheck);
    expect(dryRun[dry]!.run).toBe("npm run release:dry -- --out release");
    const notes = runs.findIndex((run) => run.startsWith("node tools/release-notes.mjs"));
    expect(notes, "a tag whose version has no CHANGELOG section stops before anything is published").toBeGreaterThan(
      tagCheck,
    );
    expect(notes).toBeLessThan(dry);
  });

  it("publishes exactly the built artifacts: each file the dry run makes, and no other", async () => {
    const { releaseArtifacts, PLUGIN_PLATFORMS } = await load();
    const published = new Set(
      [
        ...publishSteps
          .map((step) => step.run ?? "")
          .join("\n")
          .matchAll(/release\/([\w.${}-]+)/g),
      ].map((match) => match[1]!.replaceAll(SHELL_VERSION, "9.8.7")),
    );
    const built = releaseArtifacts("9.8.7");
    const byFile = built.filter((artifact) => !artifact.publishedTo.startsWith("Go module proxy"));
    expect([...published].sort()).toEqual(byFile.map((artifact) => artifact.file).sort());
    const assets = publishSteps.find((step) => step.name === "GitHub release with the plugin tarball")!.run!;
    for (const platform of PLUGIN_PLATFORMS) expect(assets).toContain(platform);
    expect(
      assets
        .match(/for platform in ([^;]+);/)![1]!
        .trim()
        .split(/\s+/),
    ).toEqual(PLUGIN_PLATFORMS);
  });

  it("tags the Go module where its go.mod path says it lives", async () => {
    const { goModulePath } = await load();
    const tagStep = publishSteps.find((step) => step.name === "Go module tag")!.run!;
    const tagged = /git tag "([^"]+)\/v\$\{VERSION\}"/.exec(tagStep)![1]!;
    expect(goModulePath().endsWith(`/${tagged}`)).toBe(true);
  });

  it("names its secrets and writes none", () => {
    const secrets = [...text.matchAll(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g)].map((match) => match[1]);
    expect(secrets.sort()).toEqual(["NPM_TOKEN", "NUGET_API_KEY", "PYPI_API_TOKEN"]);
    expect(text).not.toMatch(/pypi-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{20,}/);
  });

  it("gives the release the CHANGELOG's section of the version", async () => {
    const { releaseNotes } = await import("../../tools/release-notes.mjs");
    const changelog =
      "# Changelog\n\n## [Unreleased]\n\n- next\n\n## [1.2.0] - 2026-01-01\n\n- this\n\n## [1.1.0]\n\n- before\n";
    expect(releaseNotes(changelog, "1.2.0")).toBe("- this");
    expect(() => releaseNotes(changelog, "1.3.0")).toThrow('CHANGELOG.md has no "## [1.3.0]" heading');
  });
});
