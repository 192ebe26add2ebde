// Per-file mutation scores from the last run's JSON report (reports/mutation/mutation.json), in the form the
// mutation issue asks for: one row per file, the provider's core (provider/client + provider/framework) and the
// emulator's store as groups, and the surviving mutants of the files named after `--survivors`.
//
//   npm run mutation:table                         # the table
//   npm run mutation:table -- --survivors lifecycle  # and the survivors of every file whose path contains it
//   npm run mutation:table -- --report full.json --report focused.json
//       # several runs: a file's row comes from the last report that mutated it (a focused run after a full one)
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    report: { type: "string", multiple: true, default: ["reports/mutation/mutation.json"] },
    survivors: { type: "string", multiple: true, default: [] },
  },
});

const reportFiles = {};
for (const file of values.report) Object.assign(reportFiles, JSON.parse(readFileSync(file, "utf8")).files);

/** Stryker's score: detected (killed or timed out) over valid mutants; ignored and static ones do not count. */
function tally(mutants) {
  const count = (status) => mutants.filter((m) => m.status === status).length;
  const killed = count("Killed") + count("Timeout");
  const survived = count("Survived");
  const uncovered = count("NoCoverage");
  const valid = killed + survived + uncovered;
  return { valid, killed, survived, uncovered, score: valid === 0 ? null : (100 * killed) / valid };
}

const percent = (score) => (score === null ? "–" : `${score.toFixed(1)}%`);
const row = (name, t) =>
  `| ${name} | ${t.valid} | ${t.killed} | ${t.survived} | ${t.uncovered} | ${percent(t.score)} |`;

const files = Object.entries(reportFiles).sort(([a], [b]) => a.localeCompare(b));
const groups = {
  "provider/client + provider/framework": (path) => /^provider\/(client|framework)\//.test(path),
  "emulator stores (tables, siteStore, redirectStore, openApiStore, store)": (path) =>
    /^emulator\/(tables|siteStore|redirectStore|openApiStore|store)\.ts$/.test(path),
  "provider/resources": (path) => path.startsWith("provider/resources/"),
};

console.log("| File | Mutants | Killed | Survived | No coverage | Score |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [path, file] of files) console.log(row(path, tally(file.mutants)));
for (const [name, member] of Object.entries(groups)) {
  const mutants = files.filter(([path]) => member(path)).flatMap(([, file]) => file.mutants);
  if (mutants.length > 0) console.log(row(`**${name}**`, tally(mutants)));
}

for (const fragment of values.survivors) {
  for (const [path, file] of files.filter(([p]) => p.includes(fragment))) {
    const left = file.mutants.filter((m) => m.status === "Survived" || m.status === "NoCoverage");
    if (left.length === 0) continue;
    console.log(`\n${path}`);
    for (const m of left) {
      const replacement = (m.replacement ?? "").replace(/\s+/g, " ").slice(0, 100);
      console.log(`  ${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${replacement}`);
    }
  }
}
