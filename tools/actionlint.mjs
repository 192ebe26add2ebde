#!/usr/bin/env node
// `npm run lint:workflows`: lints every GitHub Actions workflow (the recipes under examples/ci/ and the project's
// own .github/workflows/) with actionlint, built once from
// its Go module (github.com/rhysd/actionlint, through the Go module proxy) into .tools/actionlint-<version>/, since
// the machines this runs on reach the Go proxy but not GitHub releases. Exits non-zero on any finding.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./toolchain.mjs";

export const ACTIONLINT_VERSION = "v1.7.12";
const binDir = path.join(repoRoot, ".tools", `actionlint-${ACTIONLINT_VERSION}`);
const binary = path.join(binDir, "actionlint");
const workflowDirs = [path.join(repoRoot, "examples/ci/github"), path.join(repoRoot, ".github/workflows")];

function ensureActionlint() {
  if (existsSync(binary)) return;
  console.error(`actionlint: building ${ACTIONLINT_VERSION} from the Go module proxy into ${binDir}`);
  execFileSync("go", ["install", `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
    stdio: "inherit",
    env: { ...process.env, GOBIN: binDir, CGO_ENABLED: "0" },
  });
}

const workflows = workflowDirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => path.join(dir, name)),
);
if (workflows.length === 0) throw new Error(`no workflow files in ${workflowDirs.join(", ")}`);
ensureActionlint();
execFileSync(binary, ["-no-color", ...workflows], { stdio: "inherit", cwd: repoRoot });
console.log(`actionlint ${ACTIONLINT_VERSION}: ${workflows.length} workflow files, no findings`);
