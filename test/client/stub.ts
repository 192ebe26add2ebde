import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach } from "vitest";
import { type ClientOptions, HttpClient } from "../../provider/client";

/** What a stub server saw of one request. */
export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers the n-th request (1-based); may leave `res` unanswered (a hang) or destroy the socket (a reset). */
export type StubHandler = (request: StubRequest, res: ServerResponse, n: number) => void | Promise<void>;

export interface Stub {
  url: string;
  /** host:port, as error messages name it. */
  host: string;
  port: number;
  requests: StubRequest[];
  close(): Promise<void>;
}

/** What `useStubs` gives a test file. */
export interface StubsOfTest {
  /** A stub server (see startStub), closed after the test. */
  stubbed(handler: StubHandler): Promise<Stub>;
  /** Closes these (servers, clients) after the test, after what was opened later. */
  closeLater(...close: (() => Promise<void>)[]): void;
}

/** Closes, after each test of the calling file, every stub and client the test opened, the last opened first. */
export function useStubs(): StubsOfTest {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()?.();
  });
  const closeLater = (...close: (() => Promise<void>)[]) => {
    closers.push(...close);
  };
  return {
    closeLater,
    stubbed: async (handler) => {
      const stub = await startStub(handler);
      closeLater(() => stub.close());
      return stub;
    },
  };
}

/** The error a call fails with; fails the test when the call succeeds. */
export function failureOf<E = Error>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as E,
  );
}

/**
 * A real HTTP server answering whatever a test needs, including what the emulator never does (echo the token, send
 * HTML, hang, reset): the transport is tested against bytes on a socket, not against a mock of undici.
 */
export async function startStub(handler: StubHandler, port = 0): Promise<Stub> {
  const requests: StubRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      void handler(request, res, requests.length);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    host: `127.0.0.1:${bound}`,
    port: bound,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The official error envelope. */
export function apiError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  json(res, status, { error: { code: status, message } }, headers);
}

/** 2026-11-23T12:00:00Z: a whole second, so X-RateLimit-Reset values are exact. */
export const T0 = Date.parse("2026-11-23T12:00:00Z");

/**
 * A client on a fake clock: `sleep` records the wait and moves the clock on by it, so rate-limit and retry waits
 * take no real time and are asserted exactly.
 */
export function fakeClockClient(baseUrl: string, options: Partial<ClientOptions> = {}, clock = { now: T0 }) {
  const waits: number[] = [];
  const http = new HttpClient({
    baseUrl,
    token: "test-token",
    now: () => clock.now,
    sleep: async (ms) => {
      waits.push(ms);
      clock.now += ms;
    },
    ...options,
  });
  return { http, waits, clock };
}

/** A unique token per test: the rate limiter is shared per API and token for the whole process. */
let tokens = 0;
export function uniqueToken(): string {
  tokens++;
  return `tok_${process.pid}_${tokens}_${Math.random().toString(36).slice(2)}`;
}
