/**
 * A message for the CLI from inside the provider process. The dynamic provider host has no engine connection
 * (`pulumi.log` there prints `info: [runtime] …` on stdout) and offers no way to attach a message to a resource, so
 * the message goes to stderr as one line, which the CLI shows under the stack, in the progress output and in
 * "Diagnostics". It names the resource itself: kind, id or title.
 */
export function notice(severity: "info" | "warning", message: string, about?: "stack"): void {
  sink(severity, message, about);
}

/**
 * `about: "stack"`: a notice about the program rather than the resource whose call found it (a pair of resources).
 * A plugin attaches it to the stack: the CLI reprints a resource's last message at every change of the resource's
 * progress line (three times for a create), and shows the stack's once.
 */
export type NoticeSink = (severity: "info" | "warning", message: string, about?: "stack") => void;

const toStderr: NoticeSink = (severity, message) => {
  process.stderr.write(`${severity}: ${message}\n`);
};

let sink: NoticeSink = toStderr;

/**
 * Sends notices elsewhere: a provider plugin, whose stderr the engine hides, sends them through the engine's log with
 * the resource's URN. Returns the function that puts stderr back.
 */
export function redirectNotices(to: NoticeSink): () => void {
  sink = to;
  return () => {
    sink = toStderr;
  };
}

export interface Notice {
  severity: "info" | "warning";
  message: string;
}

/**
 * Writes notices only known once the operation is over (a summary, a resource no other one matched) when the provider
 * process ends. The engine interrupts the process (SIGINT, then SIGKILL after 5 s) once the operation is done and
 * still shows what it writes to stderr then: under the stack in "Diagnostics", above the `Resources:` count. Node
 * would die of the signal without an `exit` event, so the signals exit instead. The operation calls it once, from the
 * provider process's `configure` (never in tests or tools): see `Operation.tellAtExit`.
 */
export function writeAtExit(collect: () => readonly Notice[]): void {
  process.once("exit", () => {
    for (const { severity, message } of collect()) notice(severity, message);
  });
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}
