#!/usr/bin/env node
// Usage: node tools/setup.mjs [--force] [--node-only]
//
// Provides, in .tools/bin (git-ignored), what running Pulumi programs with dynamic providers
// needs besides node_modules:
//   node                            only when the running Node is older than 22 (@pulumi/pulumi
//                                   declares engines.node >= 22): Node 24 from the npm package
//                                   node-<platform>-<arch>;
//   pulumi                          the CLI at exactly the version of the installed @pulumi/pulumi:
//                                   (a) a matching `pulumi` already on PATH, else (b) the official
//                                   npm wrapper `pulumi@<version>` (it downloads from
//                                   get.pulumi.com, so it fails fast where that is blocked), else
//                                   (c) a build from Go modules (tools/pulumi-cli);
//   pulumi-language-nodejs          next to a pulumi found in (a)/(b), else built from
//                                   tools/pulumi-language-nodejs (the official Go module is not
//                                   served by the Go module proxy);
//   pulumi-language-yaml            the YAML language host, built from tools/pulumi-language-yaml
//                                   (pulumi-yaml at the version its go.mod requires, against the
//                                   same pulumi pkg/sdk as the CLI);
//   pulumi-resource-pulumi-nodejs   the dynamic provider launcher shipped in @pulumi/pulumi;
//   pulumi-language-go, -python     this project's stand-ins for the Go and Python language hosts, built from
//                                   tools/pulumi-language-hosts (the official ones are not served by the Go
//                                   module proxy either);
//   pulumi-sdkgen                   the SDK generator (tools/pulumi-sdkgen: Pulumi's pkg/v3/codegen at the
//                                   CLI's version), which `npm run docs` runs to write sdk/python and sdk/go;
//   pulumi-sdkgen-dotnet            the C# generator for sdk/dotnet (tools/pulumi-sdkgen-dotnet: pkg/v3 v3.225.1,
//                                   the newest release that still ships it).
//
// Idempotent: .tools/setup-stamp.json records the inputs of each piece, so a warm run only
// checks that the binaries still answer with the right versions. --force redoes everything.
// --node-only provides Node alone: what `npm run mutation` needs (Stryker requires Node >= 22), without the
// Pulumi build a fresh clone would otherwise wait minutes for.
// --sdkgen-only provides the SDK generator alone: what `npm run docs` and `npm run docs:check` need (tools/gen-docs.mjs
// runs it), about 1 minute cold once the Go module cache holds Pulumi's modules.
// Node builtins only (it runs before anything else, under Node 20 and 24).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { binDir, readStamp, repoRoot, stampFile, toolsDir } from "./toolchain.mjs";

const NODE_VERSION = "24.21.0";
const MIN_NODE_MAJOR = 22;
const STAMP_SCHEMA = 1;

const cacheDir = path.join(toolsDir, "cache");
const cliModuleDir = path.join(repoRoot, "tools", "pulumi-cli");
const hostModuleDir = path.join(repoRoot, "tools", "pulumi-language-nodejs");
const yamlModuleDir = path.join(repoRoot, "tools", "pulumi-language-yaml");
const sdkgenModuleDir = path.join(repoRoot, "tools", "pulumi-sdkgen");
const dotnetSdkgenModuleDir = path.join(repoRoot, "tools", "pulumi-sdkgen-dotnet");
const hostsModuleDir = path.join(repoRoot, "tools", "pulumi-language-hosts");
const STAND_IN_HOSTS = ["pulumi-language-go", "pulumi-language-python"];
const PKG_MODULE = "github.com/pulumi/pulumi/pkg/v3";
const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
const SDK_VERSION_VAR = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";
const sdkDir = path.join(repoRoot, "node_modules", "@pulumi", "pulumi");

class SetupError extends Error {}

const started = performance.now();
const force = process.argv.includes("--force");
const nodeOnly = process.argv.includes("--node-only");
const sdkgenOnly = process.argv.includes("--sdkgen-only");

function log(message) {
  console.log(`setup: ${message}`);
}

function seconds(since) {
  return `${((performance.now() - since) / 1000).toFixed(1)}s`;
}

function rel(p) {
  return path.relative(repoRoot, p) || ".";
}

function sha256(...parts) {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Runs a command to completion and captures its output; never throws. */
function run(cmd, args, { timeout = 60_000, ...opts } = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout, maxBuffer: 64 << 20, ...opts });
  return {
    ok: r.status === 0 && !r.error,
    stdout: (r.stdout ?? "").trim(),
    stderr: (r.stderr ?? "").trim(),
    why: r.error?.message ?? (r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`),
  };
}

function lastLine(text) {
  return text.split("\n").filter(Boolean).at(-1) ?? "";
}

/** `<bin> <args>` output when it exits 0 within the timeout, else undefined. */
function versionOf(bin, args) {
  if (!isExecutable(bin)) return undefined;
  const r = run(bin, args, { timeout: 30_000, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  return r.ok ? r.stdout : undefined;
}

function expectVersion(bin, args, want) {
  const got = versionOf(bin, args);
  if (got !== want) throw new SetupError(`${rel(bin)} reports ${got ?? "an error"}, expected ${want}`);
}

// Replacing by rename means readers (e.g. a test run in another shell) never see a half-written
// file, and an interrupted setup leaves the previous binary in place.
function atomicSymlink(target, link) {
  const tmp = `${link}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  renameSync(tmp, link);
}

function atomicCopy(src, dest, mode) {
  const tmp = `${dest}.tmp-${process.pid}`;
  copyFileSync(src, tmp);
  chmodSync(tmp, mode);
  renameSync(tmp, dest);
}

function findAllOnPath(name) {
  const found = [];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate) && !found.includes(candidate)) found.push(candidate);
  }
  return found;
}

function isInside(child, parent) {
  const r = path.relative(parent, child);
  return r !== "" && !r.startsWith("..") && !path.isAbsolute(r);
}

/** The version a go.mod requires for `modulePath`, from a require line or block. */
function goModRequire(goModFile, modulePath) {
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const m = readFileSync(goModFile, "utf8").match(new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, "m"));
  return m?.[1];
}

/** Downloads `spec` from the npm registry as a tarball in .tools/cache and unpacks it into `dest`. */
function npmPackInto(spec, dest, timeout) {
  mkdirSync(cacheDir, { recursive: true });
  const r = run("npm", ["pack", spec, "--json", "--pack-destination", cacheDir], { timeout });
  if (!r.ok) throw new SetupError(`npm pack ${spec} failed (${r.why}): ${lastLine(r.stderr)}`);
  const tarball = path.join(cacheDir, JSON.parse(r.stdout)[0].filename);
  const tmp = `${dest}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", tmp], { stdio: ["ignore", "ignore", "inherit"] });
    rmSync(dest, { recursive: true, force: true });
    renameSync(path.join(tmp, "package"), dest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Two setups at once (say, two test commands) would both start a multi-minute Go build.
function acquireLock() {
  const lockDir = path.join(toolsDir, "setup.lock");
  const pidFile = path.join(lockDir, "pid");
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(pidFile, String(process.pid));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(pidFile, "utf8"));
    } catch {}
    let alive = true;
    if (Number.isInteger(holder)) {
      try {
        process.kill(holder, 0);
      } catch (err) {
        alive = err.code === "EPERM";
      }
    } else {
      // The holder may be between mkdir and writing its pid; only a long-pidless lock is stale.
      try {
        alive = Date.now() - statSync(lockDir).mtimeMs < 10_000;
      } catch {}
    }
    if (!alive) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!announced) log(`waiting for another setup (pid ${holder}) to finish...`);
    announced = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
  process.on("exit", () => {
    try {
      if (readFileSync(pidFile, "utf8") === String(process.pid)) rmSync(lockDir, { recursive: true, force: true });
    } catch {}
  });
}

function readVersions() {
  const sdkPackageJson = path.join(sdkDir, "package.json");
  if (!existsSync(sdkPackageJson)) {
    throw new SetupError(`${rel(sdkPackageJson)} not found: run \`npm ci\` (or \`npm install\`) first.`);
  }
  const version = JSON.parse(readFileSync(sdkPackageJson, "utf8")).version;
  // The YAML host is built against the CLI's pkg/sdk too: bumping one alone risks protocol drift between them.
  const pins = Object.fromEntries(
    [
      [cliModuleDir, "github.com/pulumi/pulumi/pkg/v3"],
      [cliModuleDir, "github.com/pulumi/pulumi/sdk/v3"],
      [hostModuleDir, "github.com/pulumi/pulumi/sdk/v3"],
      [yamlModuleDir, "github.com/pulumi/pulumi/pkg/v3"],
      [yamlModuleDir, "github.com/pulumi/pulumi/sdk/v3"],
      [sdkgenModuleDir, "github.com/pulumi/pulumi/pkg/v3"],
      [hostsModuleDir, "github.com/pulumi/pulumi/sdk/v3"],
      [sdkgenModuleDir, "github.com/pulumi/pulumi/sdk/v3"],
    ].map(([dir, modulePath]) => [
      `${rel(dir)}/go.mod ${modulePath}`,
      goModRequire(path.join(dir, "go.mod"), modulePath),
    ]),
  );
  const wrong = Object.entries(pins).filter(([, v]) => v !== `v${version}`);
  if (wrong.length > 0) {
    throw new SetupError(
      `the Pulumi CLI and the language hosts must be built against the installed @pulumi/pulumi ${version}, but ` +
        wrong.map(([where, v]) => `${where} is ${v ?? "missing"}`).join(", ") +
        `. Update the go.mod files (go get github.com/pulumi/pulumi/...@v${version} && go mod tidy) ` +
        "or the @pulumi/pulumi pin in package.json so they agree.",
    );
  }
  return version;
}

function provideNode(stamp) {
  const link = path.join(binDir, "node");
  const running = process.versions.node;
  if (Number(running.split(".")[0]) >= MIN_NODE_MAJOR) {
    // A Node 24 left by an earlier run under an older Node still comes first on PATH.
    const kept = versionOf(link, ["--version"]);
    return kept
      ? { line: `node     ${kept}  (kept ${rel(link)}; running node v${running} would do)`, state: stamp?.node }
      : { line: `node     v${running}  (the running node, >= ${MIN_NODE_MAJOR}; nothing to provide)` };
  }

  const pkg = `node-${process.platform}-${process.arch}`;
  const hash = sha256(pkg, NODE_VERSION);
  const want = `v${NODE_VERSION}`;
  if (!force && stamp?.node?.hash === hash && versionOf(link, ["--version"]) === want) {
    return {
      line: `node     ${want}  ${rel(link)} (cached; running node v${running} is < ${MIN_NODE_MAJOR})`,
      state: stamp.node,
    };
  }

  const t = performance.now();
  const installDir = path.join(toolsDir, "node", `${pkg}-${NODE_VERSION}`);
  const nodeBin = path.join(installDir, "bin", "node");
  let source = `reused ${rel(installDir)}`;
  if (force || versionOf(nodeBin, ["--version"]) !== want) {
    log(`running node v${running} is < ${MIN_NODE_MAJOR}: fetching ${pkg}@${NODE_VERSION} from the npm registry...`);
    npmPackInto(`${pkg}@${NODE_VERSION}`, installDir, 600_000);
    chmodSync(nodeBin, 0o755);
    source = `from npm ${pkg}@${NODE_VERSION}`;
  }
  atomicSymlink(path.relative(binDir, nodeBin), link);
  expectVersion(link, ["--version"], want);
  return {
    line: `node     ${want}  ${rel(link)} ${source} (${seconds(t)})`,
    state: { hash, method: "npm", target: rel(nodeBin) },
  };
}

/**
 * Go build with the flags of Pulumi's own releases (.goreleaser.yml), into `output` atomically.
 * `versionStamp` is the `-X` assignment (`<package>.Version=v…`) the binary reports its version from.
 */
function goBuild(moduleDir, pkg, output, versionStamp, what) {
  const go = findAllOnPath("go")[0];
  if (!go) {
    const goLine = readFileSync(path.join(moduleDir, "go.mod"), "utf8").match(/^go\s+(\S+)/m)?.[1];
    return { ok: false, why: `no \`go\` on PATH: install Go >= ${goLine} (the go line of ${rel(moduleDir)}/go.mod)` };
  }
  log(`building ${what} with ${run(go, ["version"]).stdout || "go"} ...`);
  const tmp = `${output}.tmp-${process.pid}`;
  const r = spawnSync(
    go,
    [
      "build",
      "-buildvcs=false",
      "-trimpath",
      "-tags",
      "osusergo,grpcnotrace",
      "-ldflags",
      `-w -s -X ${versionStamp}`,
      "-o",
      tmp,
      pkg,
    ],
    { cwd: moduleDir, stdio: "inherit", env: { ...process.env, CGO_ENABLED: "0" } },
  );
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    return { ok: false, why: `go build ${pkg} failed (${r.error?.message ?? `exit code ${r.status}`})` };
  }
  renameSync(tmp, output);
  return { ok: true };
}

function providePulumi(version, stamp) {
  const link = path.join(binDir, "pulumi");
  const want = `v${version}`;
  const hash = sha256(
    version,
    readFileSync(path.join(cliModuleDir, "go.mod"), "utf8"),
    readFileSync(path.join(cliModuleDir, "go.sum"), "utf8"),
  );
  if (!force && stamp?.pulumi?.hash === hash && versionOf(link, ["version"]) === want) {
    return { line: `pulumi   ${want}  ${stamp.pulumi.how} (cached)`, state: stamp.pulumi };
  }
  const t = performance.now();
  const attempts = [];

  // The language host next to a ready-made CLI belongs to the same release, so prefer it.
  const besides = (pulumiBin) =>
    [path.dirname(realpathSync(pulumiBin)), path.dirname(pulumiBin)]
      .map((dir) => path.join(dir, "pulumi-language-nodejs"))
      .find(isExecutable);
  const adopt = (pulumiBin, how) => {
    const target = realpathSync(pulumiBin);
    atomicSymlink(target, link);
    const host = besides(pulumiBin);
    return {
      line: `pulumi   ${want}  ${how} (${seconds(t)})`,
      state: { hash, how, target, languageHost: host && realpathSync(host) },
    };
  };

  // (a) A CLI already installed on this machine.
  for (const candidate of findAllOnPath("pulumi")) {
    if (isInside(realpathSync(candidate), toolsDir) || isInside(candidate, toolsDir)) continue;
    const got = versionOf(candidate, ["version"]);
    if (got === want) return adopt(candidate, `found on PATH: ${candidate}`);
    attempts.push(`(a) ${candidate} reports ${got ?? "an error"}`);
  }
  if (attempts.length === 0) attempts.push("(a) no pulumi on PATH");

  // (b) The official npm wrapper. It installs the release from get.pulumi.com into
  // $PULUMI_HOME/versions/<version>; we give it a home of its own inside .tools/cache.
  try {
    const wrapperDir = path.join(cacheDir, `pulumi-npm-${version}`);
    if (!existsSync(path.join(wrapperDir, "run.js"))) npmPackInto(`pulumi@${version}`, wrapperDir, 60_000);
    const home = path.join(cacheDir, "pulumi-npm-home");
    const env = { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
    delete env.PULUMI_VERSION; // the wrapper would install that version instead of its own
    const r = run(process.execPath, [path.join(wrapperDir, "run.js"), "version"], { env, timeout: 120_000 });
    const installed = path.join(home, "versions", version, "bin", "pulumi");
    if (r.ok && r.stdout === want && isExecutable(installed)) {
      return adopt(installed, `npm package pulumi@${version} (release from get.pulumi.com)`);
    }
    attempts.push(`(b) npm pulumi@${version}: ${r.ok ? `reported ${r.stdout}` : lastLine(r.stderr) || r.why}`);
  } catch (err) {
    attempts.push(`(b) ${err.message}`);
  }
  log(`no ready-made Pulumi CLI ${want}: ${attempts.join("; ")}`);

  // (c) Build it. Cold: about 5 minutes on 2 cores; with a warm GOCACHE, seconds.
  const built = goBuild(
    cliModuleDir,
    "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
    link,
    `${SDK_VERSION_VAR}=${want}`,
    "the Pulumi CLI",
  );
  if (!built.ok) {
    attempts.push(`(c) ${built.why}`);
    throw new SetupError(`cannot provide the Pulumi CLI ${want}:\n  ${attempts.join("\n  ")}`);
  }
  expectVersion(link, ["version"], want);
  const how = `built from Go modules (${rel(cliModuleDir)})`;
  return { line: `pulumi   ${want}  ${how} (${seconds(t)})`, state: { hash, how, target: rel(link) } };
}

function provideLanguageHost(version, stamp, pulumiState) {
  const link = path.join(binDir, "pulumi-language-nodejs");
  const want = `v${version}`;
  const sources = readdirSync(hostModuleDir)
    .filter((f) => f === "go.mod" || f === "go.sum" || f.endsWith(".go"))
    .sort()
    .flatMap((f) => [f, readFileSync(path.join(hostModuleDir, f), "utf8")]);
  const besides = pulumiState.languageHost;
  const hash = sha256(version, besides ?? "build", ...sources);
  if (!force && stamp?.languageHost?.hash === hash && versionOf(link, ["-version"]) === want) {
    return { line: `language ${want}  ${stamp.languageHost.how} (cached)`, state: stamp.languageHost };
  }
  const t = performance.now();

  if (besides) {
    atomicSymlink(besides, link);
    const how = `next to pulumi: ${besides}`;
    return { line: `language ${versionOf(link, ["-version"]) ?? "?"}  ${how}`, state: { hash, how } };
  }

  const built = goBuild(hostModuleDir, ".", link, `${SDK_VERSION_VAR}=${want}`, "pulumi-language-nodejs");
  if (!built.ok) throw new SetupError(`cannot provide pulumi-language-nodejs: ${built.why}`);
  expectVersion(link, ["-version"], want);
  const how = `built from ${rel(hostModuleDir)}`;
  return { line: `language ${want}  ${how} (${seconds(t)})`, state: { hash, how } };
}

/**
 * The version of `modulePath` linked into a Go binary, from the build info Go records in it (what
 * `go version -m` prints as `mod <module> <version>` for the main package's module, `dep …` for the
 * others); undefined when absent or not a Go binary.
 */
function goModuleVersionIn(bin, modulePath) {
  if (!isExecutable(bin)) return undefined;
  const binary = readFileSync(bin);
  for (const kind of ["mod", "dep"]) {
    const line = `\n${kind}\t${modulePath}\t`;
    const at = binary.indexOf(line);
    if (at >= 0) return binary.toString("latin1", at + line.length, at + line.length + 100).match(/^v[^\t\n]+/)?.[0];
  }
  return undefined;
}

// pulumi-language-yaml has no version flag (it reports its version only over gRPC, in GetPluginInfo),
// so the version check reads the pulumi-yaml module version from the binary's build info instead.
function provideYamlLanguageHost(stamp) {
  const link = path.join(binDir, "pulumi-language-yaml");
  const goMod = path.join(yamlModuleDir, "go.mod");
  const want = goModRequire(goMod, YAML_MODULE);
  if (!want) throw new SetupError(`${rel(goMod)} requires no ${YAML_MODULE}: restore its require line`);
  const hash = sha256(readFileSync(goMod, "utf8"), readFileSync(path.join(yamlModuleDir, "go.sum"), "utf8"));
  if (!force && stamp?.yamlLanguageHost?.hash === hash && goModuleVersionIn(link, YAML_MODULE) === want) {
    return { line: `yaml     ${want}  ${stamp.yamlLanguageHost.how} (cached)`, state: stamp.yamlLanguageHost };
  }
  const t = performance.now();
  // Cold: about 70 s on 2 cores once the CLI's build has warmed GOCACHE (most packages are shared).
  const built = goBuild(
    yamlModuleDir,
    `${YAML_MODULE}/cmd/pulumi-language-yaml`,
    link,
    `${YAML_MODULE}/pkg/version.Version=${want}`,
    "pulumi-language-yaml",
  );
  if (!built.ok) throw new SetupError(`cannot provide pulumi-language-yaml: ${built.why}`);
  const got = goModuleVersionIn(link, YAML_MODULE);
  if (got !== want) throw new SetupError(`${rel(link)} links ${YAML_MODULE} ${got ?? "(not found)"}, expected ${want}`);
  const how = `built from ${rel(yamlModuleDir)}`;
  return { line: `yaml     ${want}  ${how} (${seconds(t)})`, state: { hash, how } };
}

/**
 * The SDK generators, each checked by the pkg/v3 version its build info records (they have no version flag): a binary
 * built against another Pulumi than intended would write SDKs of another generator. pulumi-sdkgen (Python, Go) is
 * built on the CLI's pkg/v3; pulumi-sdkgen-dotnet on the newest pkg/v3 that still ships the C# generator (its go.mod
 * says why).
 */
function provideSdkGenerator(version, stamp) {
  const generators = [
    { name: "pulumi-sdkgen", dir: sdkgenModuleDir, want: `v${version}` },
    {
      name: "pulumi-sdkgen-dotnet",
      dir: dotnetSdkgenModuleDir,
      want: goModRequire(path.join(dotnetSdkgenModuleDir, "go.mod"), PKG_MODULE),
    },
  ];
  const sources = generators.flatMap(({ dir }) =>
    readdirSync(dir)
      .filter((f) => f === "go.mod" || f === "go.sum" || f.endsWith(".go") || f.endsWith(".png"))
      .sort()
      .flatMap((f) => [rel(path.join(dir, f)), readFileSync(path.join(dir, f), "utf8")]),
  );
  const hash = sha256(version, ...sources);
  const links = generators.map(({ name }) => path.join(binDir, name));
  const current = generators.every(({ want }, i) => goModuleVersionIn(links[i], PKG_MODULE) === want);
  if (!force && stamp?.sdkGenerator?.hash === hash && current) {
    return { line: `sdkgen   v${version}  ${stamp.sdkGenerator.how} (cached)`, state: stamp.sdkGenerator };
  }
  const t = performance.now();
  for (const [i, { name, dir, want }] of generators.entries()) {
    const built = goBuild(dir, ".", links[i], `${SDK_VERSION_VAR}=${want}`, name);
    if (!built.ok) throw new SetupError(`cannot provide ${name}: ${built.why}`);
    const got = goModuleVersionIn(links[i], PKG_MODULE);
    if (got !== want)
      throw new SetupError(`${rel(links[i])} links ${PKG_MODULE} ${got ?? "(not found)"}, expected ${want}`);
  }
  const how = `built from ${generators.map(({ dir }) => rel(dir)).join(" and ")}`;
  return { line: `sdkgen   v${version}  ${how} (${seconds(t)})`, state: { hash, how } };
}

/** The Go and Python stand-in hosts: one module, one binary each, rebuilt when a source of the module changes. */
function provideStandInHosts(version, stamp) {
  const want = `v${version}`;
  const sources = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/^go\.(mod|sum)$|\.(go|py)$/.test(name)) sources.push(rel(full), readFileSync(full, "utf8"));
    }
  };
  walk(hostsModuleDir);
  const hash = sha256(version, ...sources);
  const links = STAND_IN_HOSTS.map((name) => path.join(binDir, name));
  if (!force && stamp?.standInHosts?.hash === hash && links.every((link) => versionOf(link, ["-version"]) === want)) {
    return { line: `hosts    ${want}  ${stamp.standInHosts.how} (cached)`, state: stamp.standInHosts };
  }
  const t = performance.now();
  for (const [i, name] of STAND_IN_HOSTS.entries()) {
    const built = goBuild(hostsModuleDir, `./cmd/${name}`, links[i], `${SDK_VERSION_VAR}=${want}`, name);
    if (!built.ok) throw new SetupError(`cannot provide ${name}: ${built.why}`);
    expectVersion(links[i], ["-version"], want);
  }
  const how = `built from ${rel(hostsModuleDir)}`;
  return { line: `hosts    ${want}  ${STAND_IN_HOSTS.join(", ")} ${how} (${seconds(t)})`, state: { hash, how } };
}

function provideDynamicProvider(stamp) {
  const src = path.join(sdkDir, "pulumi-resource-pulumi-nodejs");
  const dest = path.join(binDir, "pulumi-resource-pulumi-nodejs");
  if (!existsSync(src)) throw new SetupError(`${rel(src)} is missing from the installed @pulumi/pulumi`);
  const hash = sha256(readFileSync(src, "utf8"));
  const how = `copied from ${rel(src)}`;
  // The engine only picks up plugins with the executable bit, which the npm tarball may not keep.
  if (force || stamp?.dynamicProvider?.hash !== hash || !isExecutable(dest)) atomicCopy(src, dest, 0o755);
  return { line: `provider pulumi-resource-pulumi-nodejs  ${how}`, state: { hash, how } };
}

function main() {
  mkdirSync(binDir, { recursive: true });
  acquireLock();
  const version = readVersions();
  const previous = readStamp();
  const stamp = previous?.schema === STAMP_SCHEMA ? previous : undefined;

  if (sdkgenOnly) {
    // The other pieces keep what the stamp says of them, as with --node-only.
    const sdkgen = provideSdkGenerator(version, stamp);
    writeStamp(stamp, { schema: STAMP_SCHEMA, pulumiVersion: version, ...stamp, sdkGenerator: sdkgen.state });
    log(sdkgen.line);
    return;
  }
  const node = provideNode(stamp);
  log(node.line);
  if (nodeOnly) {
    // The other pieces keep what the stamp says of them, so a later full setup still checks or builds them.
    writeStamp(stamp, { schema: STAMP_SCHEMA, pulumiVersion: version, ...stamp, node: node.state });
    log(`node ready in ${seconds(started)}: use node tools/with-toolchain.mjs <cmd>`);
    return;
  }
  const pulumi = providePulumi(version, stamp);
  log(pulumi.line);
  const host = provideLanguageHost(version, stamp, pulumi.state);
  log(host.line);
  const yamlHost = provideYamlLanguageHost(stamp);
  log(yamlHost.line);
  const provider = provideDynamicProvider(stamp);
  log(provider.line);
  const sdkgen = provideSdkGenerator(version, stamp);
  log(sdkgen.line);
  const hosts = provideStandInHosts(version, stamp);
  log(hosts.line);

  const next = {
    schema: STAMP_SCHEMA,
    pulumiVersion: version,
    node: node.state,
    pulumi: pulumi.state,
    languageHost: host.state,
    yamlLanguageHost: yamlHost.state,
    dynamicProvider: provider.state,
    sdkGenerator: sdkgen.state,
    standInHosts: hosts.state,
  };
  writeStamp(stamp, next);
  log(`ready in ${seconds(started)}: put ${rel(binDir)} first on PATH, or use node tools/with-toolchain.mjs <cmd>`);
}

function writeStamp(stamp, next) {
  if (JSON.stringify(next) === JSON.stringify(stamp)) return;
  const tmp = `${stampFile}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(tmp, stampFile);
}

// Let the exit handler release the lock when interrupted.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(130));

try {
  main();
} catch (err) {
  if (!(err instanceof SetupError)) throw err;
  console.error(`setup: ERROR: ${err.message}`);
  process.exit(1);
}
