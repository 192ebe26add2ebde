#!/usr/bin/env node
// Usage: node tools/with-toolchain.mjs <cmd> [args...]
// Runs <cmd> with the environment of tools/toolchain.mjs (local pulumi, plugins and node first
// on PATH, offline-safe Pulumi settings), and exits the way the command exited.
import { spawn } from "node:child_process";
import { toolchainEnv } from "./toolchain.mjs";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: node tools/with-toolchain.mjs <cmd> [args...]");
  process.exit(2);
}

// spawn looks the command up on the PATH of the env it is given, so .tools/bin wins.
const child = spawn(cmd, args, { stdio: "inherit", env: toolchainEnv() });

// The child shares our terminal, so Ctrl-C already reached it; forwarding is for signals sent
// to this process alone (e.g. a test runner's kill). We wait for the child either way.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of forwarded) process.on(signal, forward);

child.on("error", (err) => {
  console.error(`with-toolchain: cannot run ${cmd}: ${err.message}`);
  process.exit(err.code === "ENOENT" ? 127 : 126);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die by the same signal so our parent sees what really happened.
    for (const s of forwarded) process.off(s, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
