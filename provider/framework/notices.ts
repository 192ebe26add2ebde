/**
 * A message for the CLI from inside the provider process. The dynamic provider host has no engine connection
 * (`pulumi.log` there prints `info: [runtime] …` on stdout) and offers no way to attach a message to a resource, so
 * the message goes to stderr as one line, which the CLI shows under the stack, in the progress output and in
 * "Diagnostics". It names the resource itself: kind, id or title.
 */
export function notice(severity: "info" | "warning", message: string): void {
  process.stderr.write(`${severity}: ${message}\n`);
}

export interface Notice {
  severity: "info" | "warning";
  message: string;
}

/** What each `noticeAtExit` caller has to say once the operation is over, in the order they registered. */
const closingNotices = new Set<() => readonly Notice[]>();
let listening = false;

/**
 * Writes notices only known once the operation is over (a summary, a resource no other one matched) when the provider
 * process ends. The engine interrupts the process (SIGINT, then SIGKILL after 5 s) once the operation is done and
 * still shows what it writes to stderr then: under the stack in "Diagnostics", above the `Resources:` count. Node
 * would die of the signal without an `exit` event, so the signals exit instead. Called from the provider process's
 * `configure` (never in tests or tools); registering the same function again changes nothing.
 */
export function noticeAtExit(collect: () => readonly Notice[]): void {
  closingNotices.add(collect);
  if (listening) return;
  listening = true;
  process.once("exit", () => {
    for (const closing of closingNotices) {
      for (const { severity, message } of closing()) notice(severity, message);
    }
  });
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}

/** Forgets what `noticeAtExit` registered, and that it listens (tests, which replace `process.once`). */
export function resetNoticesAtExit(): void {
  closingNotices.clear();
  listening = false;
}
