/**
 * A provider process watches the Pulumi engine that started it, and leaves when the engine is gone: a CI job cancelled
 * or a `kill -9` of the CLI ends the engine, but the engine starts each plugin in a process group of its own, so its
 * providers would live on as orphans, and their creates held by the rate limit would still reach the API after the
 * answers can reach no one (a `docs-platform recover` run meanwhile finds nothing, the next `up` makes a duplicate).
 *
 * How the engine is known to be gone: its gRPC address (every provider's argument) stops accepting connections. The
 * engine serves gRPC's health service there (sdk/go/common/util/rpcutil/serve.go registers it for every server); one
 * channel checks it every CHECK_INTERVAL_MS, and at once when the channel's connection changes state. A check failing
 * with UNAVAILABLE is then confirmed by a plain TCP connect: refused means no process listens on the address any more.
 * This holds on Linux and macOS alike: when a process ends, however killed, the kernel closes its sockets, so the
 * channel's connection is reset and a connect to the port is refused at once. An engine that is alive but slow
 * (paused in a debugger, stopped with SIGSTOP, busy with a large preview) is never taken for dead: the kernel still
 * accepts connections for its listening socket, a check simply waits for its answer (no deadline) and the next one
 * is not sent before it. The parent process is not watched: the dynamic provider's node is a grandchild of the
 * engine (its `pulumi-resource-pulumi-nodejs` launcher shell stays alive as its parent), and an orphan's new parent
 * is not always PID 1 (a container's init, a systemd subreaper).
 */

import { createRequire } from "node:module";
import { connect } from "node:net";
import type * as grpcTypes from "@grpc/grpc-js";
import { haltRequests, requestsOnTheWire, wireSettled } from "../client/halt";

/** How often a live engine is asked. */
export const CHECK_INTERVAL_MS = 1_000;
/** How long requests already on the wire get to finish once the engine is gone, before the process exits. */
export const EXIT_GRACE_MS = 2_000;

const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

/** The engine's address among a plugin's arguments: the one that is neither a flag nor a flag's value. */
export function engineAddress(args: readonly string[]): string | undefined {
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--tracing") i++;
    else if (!arg.startsWith("-")) positional.push(arg);
  }
  return positional[0];
}

export interface EngineWatch {
  stop(): void;
}

/**
 * Calls `onGone` once, with why, when the engine at `address` no longer listens. The grpc-js copy is the one
 * `@pulumi/pulumi` loads (the program's), as the plugin's own gRPC classes are (../plugin/proto.ts).
 */
export function watchEngine(
  address: string,
  onGone: (why: string) => void,
  intervalMs: number = CHECK_INTERVAL_MS,
): EngineWatch {
  const grpc = createRequire(require.resolve("@pulumi/pulumi/package.json"))("@grpc/grpc-js") as typeof grpcTypes;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let stopped = false;
  let checking = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    client.close();
  };
  const gone = (why: string) => {
    if (stopped) return;
    stop();
    onGone(why);
  };
  const check = () => {
    if (checking || stopped) return;
    checking = true;
    const bytes = (value: Buffer) => value;
    client.makeUnaryRequest(HEALTH_CHECK, bytes, bytes, Buffer.alloc(0), (error) => {
      if (stopped) return;
      if (error?.code !== grpc.status.UNAVAILABLE) {
        // Answered (UNIMPLEMENTED too: something serves gRPC there).
        checking = false;
        return;
      }
      void listening(address).then((refused) => {
        checking = false;
        if (refused) {
          gone(`the Pulumi engine at ${address} is gone (its health check failed and the address refuses connections)`);
        }
      });
    });
  };
  const watchState = () => {
    if (stopped) return;
    const channel = client.getChannel();
    const state = channel.getConnectivityState(false);
    // No deadline: grpc-js would hold it in a timer that is not unref'd, keeping a process alive that has nothing
    // else to do. The watch ends with the channel (stop closes it: its state changes to SHUTDOWN).
    channel.watchConnectivityState(state, Number.POSITIVE_INFINITY, () => {
      check();
      watchState();
    });
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  check();
  watchState();
  return { stop };
}

/** Whether a TCP connect to `address` is refused: nothing listens there. A timeout is no proof of anything. */
function listening(address: string): Promise<boolean> {
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon).replace(/^\[|\]$/g, "") || "127.0.0.1";
  const port = Number(address.slice(colon + 1));
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const settle = (refused: boolean) => {
      socket.destroy();
      resolve(refused);
    };
    socket.setTimeout(5_000, () => settle(false));
    socket.once("connect", () => settle(false));
    socket.once("error", (error: NodeJS.ErrnoException) => settle(error.code === "ECONNREFUSED"));
  });
}

const INSTALLED = Symbol.for("pulumi-docs-platform.engineWatch");

/**
 * Makes this provider process leave when its engine is gone: no client sends another request and every rate-limit
 * wait or retry ends (../client/halt.ts), the requests already on the wire get EXIT_GRACE_MS to finish or fail (their
 * answers are reported to no one), and the process exits with one line on stderr saying why. Nothing is watched
 * without an engine address (a provider started by hand): it then serves until it is stopped. Installed once per
 * process, however many copies of the package load.
 */
export function leaveWhenEngineGone(args: readonly string[], who: string): EngineWatch | undefined {
  const address = engineAddress(args);
  const flags = globalThis as { [INSTALLED]?: EngineWatch };
  if (address === undefined || flags[INSTALLED]) return flags[INSTALLED];
  const watch = watchEngine(address, (why) => void leave(who, why));
  flags[INSTALLED] = watch;
  return watch;
}

async function leave(who: string, why: string): Promise<void> {
  haltRequests(why);
  // The engine read our stdout and stderr: with it gone, a write may fail with EPIPE, which must not throw.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
  const onTheWire = requestsOnTheWire();
  const left = await wireSettled(EXIT_GRACE_MS);
  const requests =
    onTheWire === 0
      ? "no request was on the wire"
      : `${onTheWire - left} of ${onTheWire} request(s) on the wire finished, ${left} left unanswered`;
  try {
    process.stderr.write(`${who} (pid ${process.pid}): ${why}; sent no further request (${requests}); exiting\n`);
  } catch {
    // Nobody reads our stderr any more.
  }
  process.exit(1);
}
