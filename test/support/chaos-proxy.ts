/**
 * A seeded fault-injecting HTTP proxy for chaos tests: it sits between the provider and the emulator and answers a
 * share of the `/v1` requests with, in turn, each fault the real API and networks produce. Which requests are hit is
 * decided by a seeded PRNG (mulberry32) over the order requests arrive in, so a seed names one fault schedule.
 */
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const CHAOS_FAULTS = ["503", "429", "reset-before", "reset-after", "latency"] as const;
export type ChaosFault = (typeof CHAOS_FAULTS)[number];

export interface ChaosOptions {
  /** The emulator's origin (http://127.0.0.1:PORT): requests go there with their path unchanged. */
  target: string;
  seed: number;
  /** Share of /v1 requests that get a fault (default 0.2). */
  rate?: number;
  /** Latency of the `latency` fault, ms (default 2000). */
  latencyMs?: number;
  /** How far ahead of now the injected 429's X-RateLimit-Reset lies, seconds (default 2). */
  resetAheadSeconds?: number;
}

export interface ChaosStats {
  /** /v1 requests the proxy received (what the client sent, retries included). */
  requests: number;
  faults: Record<ChaosFault, number>;
  /** Requests that repeat a faulted one (same method, path and body): the client's retries. */
  retries: number;
  /** Injected 429s: each makes the client wait for X-RateLimit-Reset. */
  waits: number;
}

/** The PRNG of the schedule: small, fast and good enough to spread faults (Tommy Ettinger's mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const RATE_LIMIT_BODY = {
  error: { code: 429, message: "API rate limit exceeded. Please try again in 60 seconds" },
};

export class ChaosProxy {
  private server: Server | undefined;
  private readonly random: () => number;
  private next = 0;
  /** Keys of faulted requests the client has not repeated yet. */
  private readonly pending = new Map<string, number>();
  readonly stats: ChaosStats = {
    requests: 0,
    faults: { "503": 0, "429": 0, "reset-before": 0, "reset-after": 0, latency: 0 },
    retries: 0,
    waits: 0,
  };
  /** Whether faults are injected; off, the proxy only forwards (for setup and checks). */
  enabled = true;

  constructor(private readonly options: ChaosOptions) {
    this.random = mulberry32(options.seed);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy());
    });
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  /** One line for a report: requests, faults by type, retries and waits. */
  summary(): string {
    const { requests, faults, retries, waits } = this.stats;
    const byType = CHAOS_FAULTS.map((fault) => `${fault}=${faults[fault]}`).join(" ");
    const total = CHAOS_FAULTS.reduce((sum, fault) => sum + faults[fault], 0);
    return `requests=${requests} faults=${total} (${byType}) retries=${retries} waits=${waits}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    const api = (req.url ?? "").startsWith("/v1/");
    if (!api || !this.enabled) {
      await this.forward(req, body, res);
      return;
    }
    this.stats.requests++;
    const key = `${req.method} ${req.url} ${body.toString("utf8")}`;
    const repeated = this.pending.get(key);
    if (repeated !== undefined) {
      this.stats.retries++;
      if (repeated <= 1) this.pending.delete(key);
      else this.pending.set(key, repeated - 1);
    }
    const fault = this.random() < (this.options.rate ?? 0.2) ? this.nextFault() : undefined;
    if (fault === undefined) {
      await this.forward(req, body, res);
      return;
    }
    this.stats.faults[fault]++;
    if (fault !== "latency") this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    switch (fault) {
      case "503":
        send(res, 503, { error: { code: 503, message: "Service Unavailable (chaos proxy)" } });
        return;
      case "429": {
        this.stats.waits++;
        const reset = Math.ceil(Date.now() / 1000) + (this.options.resetAheadSeconds ?? 2);
        send(res, 429, RATE_LIMIT_BODY, {
          "x-ratelimit-limit": "100",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
        });
        return;
      }
      case "reset-before":
        req.socket.destroy();
        return;
      case "reset-after": {
        // The API handles the request; the answer never reaches the client.
        const upstream = new Buffering();
        await this.forward(req, body, upstream);
        req.socket.destroy();
        return;
      }
      case "latency": {
        const upstream = new Buffering();
        await this.forward(req, body, upstream);
        await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs ?? 2000));
        if (!res.destroyed) upstream.replay(res);
        return;
      }
    }
  }

  private nextFault(): ChaosFault {
    const fault = CHAOS_FAULTS[this.next % CHAOS_FAULTS.length] as ChaosFault;
    this.next++;
    return fault;
  }

  /** Sends the request on to the target and writes its answer to `res`. */
  private forward(req: IncomingMessage, body: Buffer, res: Sink): Promise<void> {
    const target = new URL(req.url ?? "/", this.options.target);
    return new Promise((resolve, reject) => {
      const upstream = forward(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
            resolve();
          });
          answer.on("error", reject);
        },
      );
      upstream.on("error", reject);
      upstream.end(body);
    });
  }
}

/** What `forward` writes an answer to: a real response or a buffer that holds it back. */
interface Sink {
  writeHead(status: number, headers: IncomingMessage["headers"]): unknown;
  end(body: Buffer): unknown;
}

class Buffering implements Sink {
  private status = 502;
  private headers: IncomingMessage["headers"] = {};
  private body: Buffer = Buffer.alloc(0);
  writeHead(status: number, headers: IncomingMessage["headers"]) {
    this.status = status;
    this.headers = headers;
  }
  end(body: Buffer) {
    this.body = body;
  }
  replay(res: ServerResponse) {
    res.writeHead(this.status, this.headers);
    res.end(this.body);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
