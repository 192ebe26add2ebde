import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/**
 * A stand-in for the Pulumi engine's gRPC address, in a process of its own so that a test can pause it (SIGSTOP, as a
 * debugger or a starved machine does) and kill it (SIGKILL, as a cancelled CI job does): a grpc-js server (the copy
 * `@pulumi/pulumi` uses) answering gRPC's health check SERVING, as the engine's host server does.
 */
const SERVER = `
const { createRequire } = require("node:module");
const grpc = createRequire(require.resolve("@pulumi/pulumi/package.json"))("@grpc/grpc-js");
const server = new grpc.Server();
const bytes = (value) => value;
server.addService(
  { Check: { path: "/grpc.health.v1.Health/Check", requestStream: false, responseStream: false,
      requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes } },
  // HealthCheckResponse { status: SERVING (1) }
  { Check: (_call, callback) => callback(null, Buffer.from([8, 1])) },
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.stdout.write(port + "\\n");
});
`;

export interface FakeEngine {
  address: string;
  process: ChildProcess;
  pause(): void;
  resume(): void;
  kill(): Promise<void>;
}

export async function startFakeEngine(): Promise<FakeEngine> {
  const child = spawn(process.execPath, ["-e", SERVER], {
    cwd: path.resolve(__dirname, "../.."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`the fake engine exited (${code}) before listening`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    address: `127.0.0.1:${port}`,
    process: child,
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
