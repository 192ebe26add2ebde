// What one release ships: the one list that `npm run release:dry` (tools/release-dry.mjs) builds and checks and that
// .github/workflows/release.yml publishes (test/package/release.test.ts holds the two to it). Node builtins only.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./toolchain.mjs";

/** The package version, which every artifact, the schema and each SDK carry (test/package/version.test.ts). */
export function packageVersion() {
  return JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
}

/** The Go module of sdk/go, from its go.mod: the release tags `sdk/go/v<version>` for it, as Go requires. */
export function goModulePath() {
  const goMod = readFileSync(path.join(repoRoot, "sdk/go/go.mod"), "utf8");
  const match = /^module\s+(\S+)/m.exec(goMod);
  if (!match) throw new Error("sdk/go/go.mod names no module");
  return match[1];
}

/**
 * Each artifact of `version`: its file in the release folder and the registry that publishes it. An artifact that
 * `needs` a tool is built only where that tool is on the PATH; elsewhere the dry run lists it as not built, with `why`.
 */
export function releaseArtifacts(version) {
  return [
    { name: "npm package", file: `pulumi-docs-platform-${version}.tgz`, publishedTo: "npm" },
    {
      name: "provider plugin",
      file: `pulumi-resource-docs-v${version}.tar.gz`,
      publishedTo: "GitHub release (pluginDownloadURL)",
    },
    { name: "Python wheel", file: `pulumi_docs-${version}-py3-none-any.whl`, publishedTo: "PyPI" },
    { name: "Python sdist", file: `pulumi_docs-${version}.tar.gz`, publishedTo: "PyPI" },
    { name: "Go module", file: `sdk-go-v${version}.zip`, publishedTo: "Go module proxy (tag sdk/go/v<version>)" },
    {
      name: ".NET package",
      file: `DocsPlatform.Docs.${version}.nupkg`,
      publishedTo: "NuGet",
      needs: "dotnet",
      why: "`dotnet` is not on this machine: sdk/dotnet is generated and current, and packed where `dotnet` exists (the release workflow's runner)",
    },
  ];
}

/** The platforms a release uploads the plugin tarball for: its JavaScript runs on each, the CLI asks by name. */
// Not Windows: the launcher is a POSIX shell script.
export const PLUGIN_PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];
