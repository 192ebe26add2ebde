/**
 * Idle keep-alive connections are the client's to close. When the emulator closed them after Node's default 5 s, a
 * client whose event loop had been blocked past both timers (the contract validator compiling for seconds in the same
 * process, on a loaded machine) sent its next request on the socket before its own keep-alive timer ran, and met the
 * server's close as ECONNRESET (seen once in test/contract/validator.test.ts).
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});

/** Sends one keep-alive GET on the socket and resolves with the answer's head once its body has arrived. */
function get(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      const [head, body] = received.split("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(head ?? "")?.[1] ?? 0);
      if (body !== undefined && Buffer.byteLength(body) >= length) {
        socket.off("data", onData);
        resolve(head ?? "");
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${emu.token}\r\nConnection: keep-alive\r\n\r\n`,
    );
  });
}

it("leaves an idle connection open past Node's 5 s default, advertises no timeout, and answers on it again", async () => {
  const { port } = new URL(emu.url);
  const socket = connect(Number(port), "127.0.0.1");
  let closedByServer = false;
  socket.on("close", () => {
    closedByServer = true;
  });
  const first = await get(socket, `/v1/orgs/${emu.organizationId}`);
  expect(first).toMatch(/^HTTP\/1\.1 200/);
  expect(first).not.toMatch(/keep-alive: timeout=/i);
  // Idle, not busy: the wait costs no CPU.
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  expect(closedByServer, "the emulator closed an idle keep-alive connection").toBe(false);
  expect(await get(socket, `/v1/orgs/${emu.organizationId}`)).toMatch(/^HTTP\/1\.1 200/);
  socket.destroy();
});
