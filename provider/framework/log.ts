/**
 * What a kind tells the user beyond its outputs (a deletion that can be undone, an object left as it is), as one line
 * of the engine's log for the resource's operation. The client never logs; kinds call this.
 */
export type LogLevel = "info" | "warn";
export type LogSink = (level: LogLevel, line: string) => void;

/** The engine's log (`pulumi.log.info`/`warn`), or stderr where no engine listens (a plain script, a test). */
const engineLog: LogSink = (level, line) => {
  const toStderr = () => process.stderr.write(`${level}: ${line}\n`);
  try {
    // Loaded on first use: a kind's module is also loaded where Pulumi is not (the CLI's import walk).
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    pulumi.log[level](line).catch(toStderr);
  } catch {
    toStderr();
  }
};

let sink: LogSink = engineLog;

export function logLine(level: LogLevel, line: string): void {
  sink(level, line);
}

/** Sends the lines elsewhere (tests read them); returns the function that puts the engine's log back. */
export function redirectLog(to: LogSink): () => void {
  sink = to;
  return () => {
    sink = engineLog;
  };
}
