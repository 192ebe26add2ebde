import { AsyncLocalStorage } from "node:async_hooks";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import { processHalt } from "../client/halt";
import { redirectLog } from "../framework/log";
import { redirectNotices } from "../framework/notices";
import { setWaitReporter, waitLine } from "../framework/settings";
import { fromPulumi } from "./proto";

const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const engineRpc = fromPulumi<typeof engineRpcTypes>("@pulumi/pulumi/proto/engine_grpc_pb");
const engine = fromPulumi<typeof engineTypes>("@pulumi/pulumi/proto/engine_pb");

export type Severity = "info" | "warning";

/**
 * The engine's log, as a plugin must reach it. The engine hides a resource plugin's stdout and stderr (it logs them
 * at debug level: pkg/resource/plugin/plugin.go, unstructuredOutput), so every line the kinds, the notices and the
 * rate limiter would print goes through the engine's `Log` RPC instead. Each line carries the URN of the call it was
 * written in, which the engine shows under that resource; lines with no call in flight go under the stack.
 */
export class EngineLog {
  private client: engineRpcTypes.EngineClient | undefined;
  private readonly call = new AsyncLocalStorage<string>();
  private readonly pending = new Set<Promise<void>>();

  /** Connects to the engine at `address` (the plugin's argument, or what `Attach` names). */
  attach(address: string): void {
    this.client?.close();
    this.client = new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
  }

  /** Runs `work` as the call for resource `urn`: what it logs is shown under that resource. */
  within<T>(urn: string, work: () => T): T {
    return this.call.run(urn, work);
  }

  /** Sends one line; never fails (a line that cannot be sent goes to stderr, which the engine keeps in its debug log). */
  send(severity: Severity, message: string, urn = this.call.getStore() ?? ""): Promise<void> {
    const client = this.client;
    if (client === undefined) {
      process.stderr.write(`${severity}: ${message}\n`);
      return Promise.resolve();
    }
    const request = new engine.LogRequest()
      .setSeverity(severity === "info" ? engine.LogSeverity.INFO : engine.LogSeverity.WARNING)
      .setMessage(message)
      .setUrn(urn);
    const sent = new Promise<void>((resolve) =>
      client.log(request, (error) => {
        // Once the engine is gone (the process halted), a line has no one to reach: it is dropped.
        if (error && !processHalt.aborted) process.stderr.write(`${severity}: ${message}\n`);
        resolve();
      }),
    );
    this.pending.add(sent);
    void sent.then(() => this.pending.delete(sent));
    return sent;
  }

  /**
   * Waits for every line sent so far: a call answers after its lines, so they show while its resource is in
   * progress, not after it.
   */
  async flushed(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** Routes the kinds' log lines, the notices and the rate limiter's waits here; returns what puts them back. */
  install(): () => void {
    const restoreLog = redirectLog((level, line) => void this.send(level === "warn" ? "warning" : "info", line));
    const restoreNotices = redirectNotices(
      (severity, message, about) => void this.send(severity, message, about === "stack" ? "" : undefined),
    );
    // Under the stack: the requests of a period are many resources', and its timer runs in the first one's call.
    setWaitReporter((period) => void this.send("info", waitLine(period), ""));
    return () => {
      restoreLog();
      restoreNotices();
      setWaitReporter(undefined);
    };
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }
}
