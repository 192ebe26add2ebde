// Preloaded (`--require`) into the CLI's Node processes when `npm run bench -- --cpu-prof <dir>` profiles them. The
// engine stops the provider plugin and the program with SIGINT (SIGKILL 5 s later), and Node's default SIGINT ends a
// process without writing its `--cpu-prof` profile; a normal exit writes it. At exit, each process also appends its
// exact CPU time (process.cpuUsage) to cpu.jsonl in the profile folder: profiles sample wall-clock time, which a
// loaded machine inflates.
const { appendFileSync } = require("node:fs");
const path = require("node:path");

process.once("SIGINT", () => process.exit(130));
process.once("exit", () => {
  const dir = /--cpu-prof-dir=(\S+)/.exec(process.env.NODE_OPTIONS ?? "")?.[1];
  if (!dir) return;
  const { user, system } = process.cpuUsage();
  const main = process.argv[1] ?? "";
  // The dynamic route's and the floor's provider, or the plugin route's server (dist/provider/plugin/main.js).
  const role = /cmd[\\/]dynamic-provider|provider[\\/]plugin[\\/]main\.js/.test(main)
    ? "provider"
    : /cmd[\\/]run/.test(main)
      ? "program"
      : path.basename(main);
  try {
    appendFileSync(
      path.join(dir, "cpu.jsonl"),
      `${JSON.stringify({ pid: process.pid, role, cpuMs: (user + system) / 1000, uptimeMs: process.uptime() * 1000 })}\n`,
    );
  } catch {}
});
