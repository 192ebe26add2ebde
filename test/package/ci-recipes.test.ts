import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ciDir = path.resolve(__dirname, "../../examples/ci");
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;
const minimumNode = Number(/^>=(\d+)/.exec(require("../../package.json").engines.node)![1]);

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, asserted field by field.
type Yaml = any;
const load = (file: string): Yaml => parse(readFileSync(path.join(ciDir, file), "utf8"));
const SECRETS = ["DOCS_API_TOKEN", "PULUMI_ACCESS_TOKEN", "PULUMI_CONFIG_PASSPHRASE"];

// What a preview prints: the diff on stdout, and with --diff the provider's notes (diagnostics) on stderr.
const DIFF = [
  "Previewing update (acme/docs/prod):",
  "    ~ docs:index:SiteStructure: (update)",
  '        ~ order: ["sec-2", "sec-1"] => ["sec-1", "sec-2"]',
  "Resources:",
  "    ~ 1 to update",
  "",
].join("\n");
const NOTES = [
  '    info: SiteStructure "site-1": order: "Guides" moves from 2 to 1.',
  "    info: 15 to adopt, 0 to change: 15 of the creates counted below take over the existing objects their importId names instead of making new ones.",
  '    warning: SiteShareLink "link-1": site "site-1" is not a share-link site; the link gives no access until it is.',
  "",
].join("\n");

// The values GitHub gives the expressions preview.yml's steps read.
const CONTEXT: Record<string, string> = {
  "${{ vars.PULUMI_STACK }}": "acme/docs/prod",
  "${{ github.token }}": "the-job-token",
  "${{ github.event.pull_request.number }}": "7",
  "${{ github.event.pull_request.head.sha }}": "0123abc",
  "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}":
    "https://github.com/acme/docs/actions/runs/99",
};

// `gh api` as the comment step calls it: a GET answers the stored pages of comments, a write is recorded.
const GH_STUB = `#!/bin/sh
[ "$1" = api ] || { echo "gh stub: only 'gh api' is expected, got: $*" >&2; exit 2; }
shift
method=GET; target=; body=
while [ $# -gt 0 ]; do
  case "$1" in
    --method) method=$2; shift 2 ;;
    --paginate) shift ;;
    -F) body=\${2#body=@}; shift 2 ;;
    -*) echo "gh stub: unexpected flag $1" >&2; exit 2 ;;
    *) target=$1; shift ;;
  esac
done
if [ "$method" = GET ]; then cat "$STUB/comments.json"; exit 0; fi
echo "$method $target" >> "$STUB/writes"
cp "$body" "$STUB/body.md"
`;

/**
 * Runs preview.yml's preview and comment steps as GitHub runs a step (`bash -e <script>`, the step's env), with a
 * `pulumi` that prints the given output and exits with the given status, and a `gh` that lists the given pages of
 * comments and records what is written.
 */
function runPreview(output: { stdout: string; stderr: string; status?: number; comments?: object[][] }) {
  const steps: Yaml[] = load("github/preview.yml").jobs.preview.steps;
  const dir = mkdtempSync(path.join(tmpdir(), "preview-recipe-"));
  try {
    const bin = path.join(dir, "bin");
    const work = path.join(dir, "work");
    mkdirSync(bin);
    mkdirSync(work);
    writeFileSync(path.join(dir, "stdout.txt"), output.stdout);
    writeFileSync(path.join(dir, "stderr.txt"), output.stderr);
    writeFileSync(
      path.join(dir, "comments.json"),
      (output.comments ?? [[]]).map((page) => JSON.stringify(page)).join("\n"),
    );
    const pulumi = `#!/bin/sh\necho "$*" > "$STUB/pulumi-args"\ncat "$STUB/stdout.txt"\ncat "$STUB/stderr.txt" >&2\nexit ${output.status ?? 0}\n`;
    writeFileSync(path.join(bin, "pulumi"), pulumi, { mode: 0o755 });
    writeFileSync(path.join(bin, "gh"), GH_STUB, { mode: 0o755 });
    const summary = path.join(dir, "summary.md");
    writeFileSync(summary, "");
    const runStep = (step: Yaml, context: Record<string, string>) => {
      const script = path.join(dir, "step.sh");
      writeFileSync(script, step.run);
      const stepEnv = Object.fromEntries(
        Object.entries(step.env as Record<string, string>).map(([name, expression]) => {
          if (!(expression in context)) throw new Error(`${name}: no value for ${expression} in the test's context`);
          return [name, context[expression]];
        }),
      );
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, STUB: dir, GITHUB_REPOSITORY: "acme/docs" };
      return spawnSync("bash", ["-e", script], {
        cwd: work,
        encoding: "utf8",
        env: { ...env, GITHUB_STEP_SUMMARY: summary, ...stepEnv },
      });
    };
    const preview = runStep(
      steps.find((step) => step.id === "preview"),
      CONTEXT,
    );
    const outcome = preview.status === 0 ? "success" : "failure";
    const comment = runStep(steps[steps.length - 1], { ...CONTEXT, "${{ steps.preview.outcome }}": outcome });
    if (comment.status !== 0) throw new Error(`the comment step failed: ${comment.stderr}`);
    const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
    return {
      previewStatus: preview.status,
      pulumiArgs: read("pulumi-args").trim(),
      writes: existsSync(path.join(dir, "writes")) ? read("writes").trim().split("\n") : [],
      body: read("body.md"),
      summary: read("summary.md"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The CI recipes users copy. actionlint (`npm run lint:workflows`) checks the GitHub workflows' syntax, expressions
 * and the pulumi/actions inputs; these tests check that each recipe does what the README promises.
 */
describe("GitHub Actions recipes", () => {
  const workflows = Object.fromEntries(
    readdirSync(path.join(ciDir, "github")).map((file) => [file, load(`github/${file}`)]),
  );
  const pulumiStep = (workflow: Yaml) => {
    const steps = Object.values(workflow.jobs).flatMap((job: Yaml) => job.steps);
    const found = steps.filter((step: Yaml) => String(step.uses).startsWith("pulumi/actions@"));
    expect(found).toHaveLength(1);
    return found[0].with;
  };

  it("are the preview, deploy and drift workflows", () => {
    expect(Object.keys(workflows).sort()).toEqual(["deploy.yml", "drift.yml", "preview.yml"]);
  });

  describe("preview.yml", () => {
    const workflow = workflows["preview.yml"];
    const steps: Yaml[] = workflow.jobs.preview.steps;
    const previewStep = steps.find((step) => step.id === "preview");
    const commentStep = steps[steps.length - 1];

    it("previews pull requests with refresh, diff and preflight, and comments with a token that can write only that", () => {
      expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
      expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
      // Preflight: a wrong id or token fails the pull request, not the deploy after merging.
      expect(workflow.jobs.preview.env.DOCS_PREFLIGHT).toBe("true");
      // pulumi/actions installs the CLI only: its own preview would comment with stdout alone.
      expect(pulumiStep(workflow).command).toBeUndefined();
      expect(previewStep.run).toMatch(/--refresh --diff/);
      // Also when the preview failed (the comment says why), never on a cancelled run, and not on forks' pull
      // requests, whose token cannot comment.
      expect(commentStep.if).toContain("!cancelled()");
      expect(commentStep.if).toContain("steps.preview.outcome != 'skipped'");
      expect(commentStep.if).toContain("github.event.pull_request.head.repo.full_name == github.repository");
      expect(commentStep.env.OUTCOME).toBe(`\${{ steps.preview.outcome }}`);
    });

    it("comments with everything the preview printed: the diff on stdout and the provider's notes on stderr", () => {
      const run = runPreview({ stdout: DIFF, stderr: NOTES });
      expect(run.previewStatus).toBe(0);
      expect(run.pulumiArgs).toBe("preview --stack acme/docs/prod --refresh --diff --non-interactive");
      expect(run.writes).toEqual(["POST repos/acme/docs/issues/7/comments"]);
      expect(run.body).toContain(DIFF);
      expect(run.body).toContain(NOTES);
      expect(run.body).toMatch(/^<!-- docs preview of acme\/docs\/prod -->\n#### .* at 0123abc: succeeded$/m);
      // The run's page gets the same report (the step summary).
      expect(run.summary).toBe(run.body);
    });

    it("fails the job when the preview fails, and the comment shows why", () => {
      const failure = 'error: preflight: SiteSpace "sp-typo": no space with this id; fix the id in the program.\n';
      const run = runPreview({ stdout: DIFF, stderr: failure, status: 255 });
      expect(run.previewStatus).toBe(255);
      expect(run.body).toContain(failure);
      expect(run.body).toMatch(/^#### .*: \*\*failed\*\*$/m);
    });

    it("edits its own comment on each push, leaving other comments alone", () => {
      const marker = "<!-- docs preview of acme/docs/prod -->";
      const comments = [
        [
          { id: 11, user: { login: "github-actions[bot]" }, body: "a comment by another workflow" },
          { id: 12, user: { login: "github-actions[bot]" }, body: `${marker}\n#### an older push's preview` },
        ],
        // The second page of `gh api --paginate`: this workflow's latest comment, then others that follow it.
        [
          { id: 14, user: { login: "github-actions[bot]" }, body: `${marker}\n#### the last push's preview` },
          { id: 15, user: { login: "octocat" }, body: `${marker}\na reviewer's comment starting like it` },
          { id: 16, user: { login: "github-actions[bot]" }, body: "<!-- docs preview of acme/docs/staging -->\n" },
        ],
      ];
      const run = runPreview({ stdout: DIFF, stderr: NOTES, comments });
      expect(run.writes).toEqual(["PATCH repos/acme/docs/issues/comments/14"]);
      expect(run.body).toContain(NOTES);
    });

    it("keeps the comment within GitHub's 65536 characters: the end of the output, from a line start, and says so", () => {
      const diff = Array.from({ length: 3000 }, (_, i) => `    ~ docs:index:SitePage: (update) é page ${i}\n`).join("");
      const run = runPreview({ stdout: `${diff}Resources:\n    ~ 3000 to update\n`, stderr: NOTES });
      expect(run.body.length).toBeLessThan(65536);
      expect(run.body).toContain("too long for a comment: this is its end");
      expect(run.body).toContain("Resources:\n    ~ 3000 to update\n");
      expect(run.body).not.toContain("page 0\n");
      const shown = run.body.split("```\n")[1];
      expect(shown).toMatch(/^ {4}~ docs:index:SitePage: \(update\) é page \d+\n/);
    });

    it("fences the output with more backticks than any page content in the diff holds, on lines of their own", () => {
      // An output cut short (the CLI killed) ends mid-line: the closing fence still starts a line.
      const stdout = '    ~ content: "```ts\\nconst a = 1;\\n````\\n"';
      const run = runPreview({ stdout, stderr: "" });
      expect(run.body).toMatch(/^`{5}\n {4}~ content: .*"\n`{5}\n$/m);
    });
  });

  it("run up on merges to main, one at a time and never cancelled midway", () => {
    const workflow = workflows["deploy.yml"];
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
    expect(pulumiStep(workflow)).toMatchObject({ command: "up" });
  });

  it("check drift nightly with docs-platform drift, open or update one issue with its Markdown, keep its HTML", () => {
    const workflow = workflows["drift.yml"];
    expect(workflow.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    // pulumi/actions only installs the CLI: the command runs the preview itself.
    expect(pulumiStep(workflow).command).toBeUndefined();
    const steps = workflow.jobs.drift.steps;
    const drift = steps.find((step: Yaml) => step.id === "drift");
    expect(drift.run).toMatch(/^set -o pipefail$/m);
    // As the README's nightly script: the organization comes from the stack (its config, else its resources).
    expect(drift.run).toMatch(
      /^npx docs-platform drift --stack "\$\{STACK\}" --markdown --html drift\.html \| tee drift\.md$/m,
    );
    expect(drift.run).not.toMatch(/--organization|pulumi config get/);
    const artifact = steps.find((step: Yaml) => String(step.uses).startsWith("actions/upload-artifact@"));
    expect(artifact.with.path).toBe("drift.html");
    expect(artifact.if).toContain("!cancelled()");
    const report = steps[steps.length - 1];
    expect(report.if).toContain("failure()");
    expect(report.if).toContain("steps.drift.outcome == 'failure'");
    expect(report.run).toContain("drift.md");
    expect(report.run).toMatch(/gh issue create/);
    // One issue, its body the latest report.
    expect(report.run).toMatch(/gh issue edit "\$\{number\}" --body-file issue\.md/);
    expect(workflow.permissions.issues).toBe("write");
  });

  it("take every credential from the secret store, pin the Pulumi CLI to @pulumi/pulumi and run a supported Node", () => {
    for (const [file, workflow] of Object.entries(workflows)) {
      for (const job of Object.values(workflow.jobs) as Yaml[]) {
        for (const name of SECRETS) expect(job.env[name], `${file} ${name}`).toBe(`\${{ secrets.${name} }}`);
        const setupNode = job.steps.find((step: Yaml) => String(step.uses).startsWith("actions/setup-node@"));
        expect(Number(setupNode.with["node-version"]), file).toBeGreaterThanOrEqual(minimumNode);
      }
      expect(pulumiStep(workflow)["pulumi-version"], file).toBe(pulumiVersion);
    }
  });
});

describe("GitLab CI recipe", () => {
  const pipeline = load("gitlab/.gitlab-ci.yml");
  const rules = (job: string) => pipeline[job].rules.map((rule: Yaml) => rule.if).join(" ");

  it("previews merge requests, posting the diff as a note", () => {
    expect(rules("preview")).toContain('$CI_PIPELINE_SOURCE == "merge_request_event"');
    expect(pipeline.preview.script.join("\n")).toMatch(/pulumi preview --refresh --diff/);
    expect(pipeline.preview.script.join("\n")).toMatch(/merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/);
    expect(pipeline.preview.variables.DOCS_PREFLIGHT).toBe("true");
  });

  it("runs up on the default branch, serialized per stack and not interruptible", () => {
    expect(rules("up")).toContain("$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH");
    expect(pipeline.up.resource_group).toBe("docs-$PULUMI_STACK");
    expect(pipeline.up.interruptible).toBe(false);
    expect(pipeline.up.script.join("\n")).toMatch(/pulumi up --refresh --yes/);
  });

  it("checks drift on a schedule with docs-platform drift, keeping both reports and opening or updating an issue", () => {
    expect(rules("drift")).toContain('$CI_PIPELINE_SOURCE == "schedule"');
    expect(pipeline.drift.script).toEqual([
      'set -o pipefail; npx docs-platform drift --stack "$PULUMI_STACK" --markdown --html drift.html | tee drift.md',
    ]);
    expect(pipeline.drift.artifacts.paths).toEqual(["drift.md", "drift.html"]);
    expect(pipeline.drift.artifacts.when).toBe("always");
    expect(pipeline["drift-issue"].rules[0].when).toBe("on_failure");
    expect(pipeline["drift-issue"].needs).toEqual(["drift"]);
    const issue = pipeline["drift-issue"].script.join("\n");
    expect(issue).toContain("drift.md");
    expect(issue).toMatch(/--request PUT .*description@issue\.md/);
  });

  it("keeps a failing pulumi command failing through its pipe, and pins the CLI to @pulumi/pulumi", () => {
    const lines = ["preview", "up", "drift"].flatMap((job) => pipeline[job].script as string[]);
    for (const line of lines.filter((l) => /pulumi \w+.*\| tee/.test(l))) expect(line).toMatch(/^set -o pipefail;/);
    expect(pipeline.default.before_script.join("\n")).toContain(`--version ${pulumiVersion}`);
    expect(Number(/node:(\d+)/.exec(pipeline.default.image)![1])).toBeGreaterThanOrEqual(minimumNode);
  });

  it("defines no credential in the file: they are CI/CD variables", () => {
    const text = readFileSync(path.join(ciDir, "gitlab/.gitlab-ci.yml"), "utf8");
    for (const name of SECRETS) expect(text).not.toMatch(new RegExp(`^\\s*${name}:`, "m"));
    expect(pipeline.variables).toBeUndefined();
  });
});

/** Every shell script of the recipes, as the runner hands it to bash: expressions replaced by a plain word. */
function recipeScripts(): { where: string; script: string }[] {
  const scripts: { where: string; script: string }[] = [];
  const withoutExpressions = (script: string) => script.replace(/\$\{\{[^}]*\}\}/g, "x");
  for (const file of readdirSync(path.join(ciDir, "github"))) {
    const workflow = load(`github/${file}`);
    for (const [job, spec] of Object.entries(workflow.jobs as Record<string, Yaml>)) {
      (spec.steps as Yaml[]).forEach((step, index) => {
        if (typeof step.run === "string")
          scripts.push({ where: `${file} ${job} step ${index}`, script: withoutExpressions(step.run) });
      });
    }
  }
  const gitlab = load("gitlab/.gitlab-ci.yml");
  for (const [job, spec] of Object.entries(gitlab as Record<string, Yaml>)) {
    for (const key of ["before_script", "script", "after_script"]) {
      const lines = spec?.[key];
      if (Array.isArray(lines)) scripts.push({ where: `.gitlab-ci.yml ${job} ${key}`, script: lines.join("\n") });
    }
  }
  return scripts;
}

describe("every recipe's shell", () => {
  it("parses: bash -n accepts every run step and job script", () => {
    const scripts = recipeScripts();
    expect(scripts.length).toBeGreaterThan(5);
    const refused = scripts
      .map(({ where, script }) => ({ where, check: spawnSync("bash", ["-n"], { input: script, encoding: "utf8" }) }))
      .filter(({ check }) => check.status !== 0)
      .map(({ where, check }) => `${where}: ${check.stderr.trim()}`);
    expect(refused).toEqual([]);
  });
});
