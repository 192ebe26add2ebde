// `node bench/emulator-soak.mts [--minutes 60] [--rate 250] [--seed 1] [--out file.json]`: starts the emulator as a
// process of its own (`node dist/emulator/cli.js`, so the RSS read is its alone; run `npm run build` first) and drives
// Schemathesis-style load at it for the given time: requests generated from the official OpenAPI document for the
// operations the emulator serves (valid bodies from the schemas and invalid ones, random and known path ids, list
// pagination, creates and deletes), plus a few operations of the document it does not serve (unknown paths) and
// requests with foreign tokens. One connection, at most `--rate` requests per second. Prints the emulator's VmRSS every
// minute, then the summary: RSS at 1 minute and at the end, their ratio, requests sent, log entries dropped, objects
// the fuzzer created and deleted and what the lists show at the end.
//
// Why not Schemathesis itself: it needs a Python toolchain and follows the whole document (263 paths, most of them not
// emulated); this generator keeps its mix (schema-driven valid and invalid bodies, stateful ids) on the emulated
// operations, runs offline from the package's own copy of the document and has no dependency.
//
// Store objects are the API's data, not a leak: the fuzzer deletes what it created once it holds POOL_CAP objects of
// a kind, so the data stays roughly flat (soft-deleted spaces stay in the store, as in the real API), and the summary
// counts what remains so that growth can be told apart from the emulator's own bookkeeping.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, "..");

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    rate: { type: "string", default: "250" },
    seed: { type: "string", default: "1" },
    out: { type: "string" },
    dist: { type: "string", default: path.join(root, "dist") },
    "log-limit": { type: "string" },
    /** Node options for the emulator's process, e.g. "--trace-gc" or "--heapsnapshot-signal=SIGUSR2" (diagnosis). */
    "emulator-node-options": { type: "string", default: "" },
  },
});
const durationMs = Number(args.minutes) * 60_000;
const ratePerSecond = Number(args.rate);
const POOL_CAP = 100;

// ---- randomness (seeded, so a seed names one run)

let state = Number(args.seed) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const chance = (p: number): boolean => random() < p;
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(random() * xs.length)] as T;
}
function randomText(min = 1, max = 24): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_ éü🎉";
  const chars = [...alphabet];
  let out = "";
  for (let i = int(min, max); i > 0; i--) out += pick(chars);
  return out;
}

// ---- the document

type Schema = Record<string, unknown>;
const doc = require("@gitbook/api/spec/openapi.json") as {
  paths: Record<string, Record<string, { parameters?: Schema[]; requestBody?: Schema }>>;
  components: Record<string, Record<string, Schema>>;
};

function deref(s: Schema | undefined): Schema {
  let out = s ?? {};
  for (let i = 0; i < 20 && typeof out.$ref === "string"; i++) {
    const [, , group, name] = (out.$ref as string).split("/");
    out = doc.components[group as string]?.[name as string] ?? {};
  }
  return out;
}

/** A value for the schema: valid as far as the schema's keywords go (patterns aside). */
function sample(schemaRef: Schema | undefined, depth = 0): unknown {
  const s = deref(schemaRef);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return pick(s.enum);
  const options = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (options?.length) return sample(pick(options), depth + 1);
  if (Array.isArray(s.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of s.allOf as Schema[]) {
      const v = sample(part, depth + 1);
      if (v && typeof v === "object" && !Array.isArray(v)) Object.assign(merged, v);
    }
    return merged;
  }
  const type = Array.isArray(s.type) ? pick(s.type as string[]) : (s.type as string | undefined);
  if (depth > 6) return type === "object" ? {} : type === "array" ? [] : null;
  switch (type ?? (s.properties ? "object" : undefined)) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [k, v] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
        if (required.has(k) || chance(0.5)) out[k] = sample(v, depth + 1);
      }
      return out;
    }
    case "array": {
      const min = (s.minItems as number | undefined) ?? 0;
      const max = Math.min((s.maxItems as number | undefined) ?? 3, min + 3);
      return Array.from({ length: int(min, max) }, () => sample(s.items as Schema, depth + 1));
    }
    case "string": {
      if (s.format === "uri" || s.format === "url") return `https://example.com/${randomText(1, 8)}`;
      if (s.format === "email") return `${randomText(3, 8).replace(/[^a-z]/g, "a")}@example.com`;
      if (s.format === "date-time") return new Date(int(0, 2e12)).toISOString();
      const min = (s.minLength as number | undefined) ?? 1;
      const max = Math.min((s.maxLength as number | undefined) ?? 40, min + 40);
      return randomText(min, max);
    }
    case "integer":
    case "number": {
      const min = (s.minimum as number | undefined) ?? 0;
      const max = (s.maximum as number | undefined) ?? 1000;
      return int(Math.ceil(min), Math.floor(max));
    }
    case "boolean":
      return chance(0.5);
    case "null":
      return null;
    default:
      return randomText();
  }
}

/** An invalid variant of a valid body: a missing or mistyped field, an unknown one, an overlong string, not JSON. */
function mutate(body: unknown, schemaRef: Schema | undefined): { body: unknown; raw?: string } {
  const s = deref(schemaRef);
  const obj = body && typeof body === "object" && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  const keys = Object.keys(obj);
  switch (int(0, 5)) {
    case 0: {
      const required = (s.required as string[] | undefined) ?? keys;
      if (required.length) delete obj[pick(required)];
      return { body: obj };
    }
    case 1:
      if (keys.length) obj[pick(keys)] = pick([42, true, null, [], {}, "x".repeat(int(1, 3))]);
      return { body: obj };
    case 2:
      obj[`unknown_${randomText(1, 6)}`] = randomText();
      return { body: obj };
    case 3:
      if (keys.length) obj[pick(keys)] = "y".repeat(int(100, 5000));
      return { body: obj };
    case 4:
      return { body: undefined, raw: pick(["{", "not json", "[1,2", '"just a string"', "null"]) };
    default:
      return { body: pick([[], 7, "text", null]) };
  }
}

// ---- the operations the emulator serves

interface Operation {
  method: string;
  /** Template including /v1. */
  template: string;
  params: string[];
  query: Schema[];
  bodySchema?: Schema;
  served: boolean;
}

const distEmulator = path.join(args.dist as string, "emulator", "index.js");
const { allRoutes } = require(distEmulator) as { allRoutes: { method: string; path: string }[] };

function operation(method: string, template: string, served: boolean): Operation {
  const op = doc.paths[template.slice(3)]?.[method.toLowerCase()];
  const parameters = (op?.parameters ?? []).map(deref);
  const bodySchema = deref(op?.requestBody).content as Record<string, { schema?: Schema }> | undefined;
  return {
    method,
    template,
    params: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
    query: parameters.filter((p) => p.in === "query"),
    bodySchema: bodySchema?.["application/json"]?.schema,
    served,
  };
}

const served = allRoutes.map((r) => operation(r.method, r.path, true));
const servedKeys = new Set(allRoutes.map((r) => `${r.method} ${r.path}`));
const unserved: Operation[] = [];
for (const [p, ops] of Object.entries(doc.paths)) {
  for (const method of Object.keys(ops)) {
    if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
    const key = `${method.toUpperCase()} /v1${p}`;
    if (!servedKeys.has(key)) unserved.push(operation(method.toUpperCase(), `/v1${p}`, false));
  }
}

/** Collection segment → the parameter that names one of its items, from the templates (`/sites/{siteId}`). */
const itemParam = new Map<string, string>();
for (const op of served) {
  for (const m of op.template.matchAll(/\/([\w-]+)\/\{(\w+)\}/g)) {
    if (!itemParam.has(m[1] as string)) itemParam.set(m[1] as string, m[2] as string);
  }
}

// ---- known objects: per parameter, the parameters that reach each one

type Context = Record<string, string>;
const pools = new Map<string, Context[]>();
function remember(param: string, context: Context): void {
  const pool = pools.get(param) ?? [];
  if (pool.some((c) => c[param] === context[param])) return;
  pool.push(context);
  pools.set(param, pool);
}
function forget(param: string, id: string): void {
  const pool = pools.get(param);
  if (pool)
    pools.set(
      param,
      pool.filter((c) => c[param] !== id),
    );
}

function fillParams(op: Operation): Context {
  const out: Context = {};
  // The deepest parameter with known objects brings its parents along, so most requests reach real objects.
  for (const param of [...op.params].reverse()) {
    if (out[param] !== undefined) continue;
    const pool = pools.get(param);
    if (pool?.length && chance(0.9)) {
      const context = pick(pool);
      for (const p of op.params) if (out[p] === undefined && context[p] !== undefined) out[p] = context[p];
    }
  }
  for (const param of op.params) out[param] ??= randomText(6, 20);
  if (chance(0.1) && op.params.length) out[pick(op.params)] = randomText(6, 20);
  return out;
}

// ---- the emulator

const emulatorArgs = ["--rate-limit", "1000000/1m", "--openapi-step-ms", "10"];
if (args["log-limit"] !== undefined) emulatorArgs.push("--request-log-limit", args["log-limit"]);
const nodeOptions = (args["emulator-node-options"] as string).split(" ").filter(Boolean);
const cli = path.join(args.dist as string, "emulator", "cli.js");
const child = spawn(process.execPath, [...nodeOptions, cli, ...emulatorArgs], {
  stdio: ["ignore", "pipe", "inherit"],
});
const started = await new Promise<{
  url: string;
  token: string;
  organizationId: string;
  secondOrganizationId: string;
  spaceIds: string[];
  userIds: string[];
}>((resolve, reject) => {
  let text = "";
  // The emulator's JSON line, then whatever diagnosis options print (--trace-gc) goes to stderr.
  let found = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (found) return void traceGc(chunk.toString());
    text += chunk.toString();
    const line = text.split("\n").find((l) => l.startsWith('{"url"'));
    if (line === undefined) return;
    found = true;
    resolve(JSON.parse(line));
  });
  child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
});
/**
 * With `--trace-gc` among the emulator's node options: the JS heap after the latest full GC (what is live) and the
 * heap V8 holds (committed), which tells the emulator's data apart from V8's sizing of its heap.
 */
const heap: { liveMbAfterFullGc?: number; committedMb?: number; fullGcs: number } = { fullGcs: 0 };
function traceGc(text: string): void {
  for (const m of text.matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/g)) {
    heap.liveMbAfterFullGc = Number(m[1]);
    heap.committedMb = Number(m[2]);
    heap.fullGcs += 1;
  }
  if (process.env.SOAK_DEBUG) process.stderr.write(text);
}

const origin = started.url.replace(/\/v1$/, "");
const fixtureIds = new Set([
  started.organizationId,
  started.secondOrganizationId,
  ...started.spaceIds,
  ...started.userIds,
]);
for (const org of [started.organizationId, started.secondOrganizationId])
  remember("organizationId", { organizationId: org });
for (const spaceId of started.spaceIds) remember("spaceId", { organizationId: started.organizationId, spaceId });
for (const userId of started.userIds) remember("userId", { organizationId: started.organizationId, userId });

function rssKb(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

// ---- the load

const counts = {
  sent: 0,
  byStatus: {} as Record<string, number>,
  created: {} as Record<string, number>,
  deleteAnswered2xx: {} as Record<string, number>,
};
const pendingDeletes: { op: Operation; params: Context }[] = [];
const deleteOps = served.filter((o) => o.method === "DELETE");

function requestFor(op: Operation, params: Context): { url: string; init: RequestInit } {
  let p = op.template;
  for (const [k, v] of Object.entries(params)) p = p.replace(`{${k}}`, encodeURIComponent(v));
  const query = new URLSearchParams();
  for (const q of op.query) {
    if (!chance(0.5)) continue;
    const name = q.name as string;
    if (name === "limit") query.set(name, String(pick([1, 2, 5, 20, 100, 1000, 0, 1001, -1, "abc"])));
    else if (name === "page") query.set(name, pick([...nextPages, randomText(4, 12)]));
    else query.set(name, String(sample(q.schema as Schema)));
  }
  const headers: Record<string, string> = { "user-agent": "emulator-soak" };
  const auth = random();
  if (auth < 0.96) headers.authorization = `Bearer ${started.token}`;
  else if (auth < 0.98) headers.authorization = `Bearer foreign-${int(0, 2 ** 40).toString(36)}`;
  let body: string | undefined;
  if (op.method !== "GET" && op.method !== "DELETE" && op.bodySchema) {
    const valid = sample(op.bodySchema);
    if (chance(0.65)) body = JSON.stringify(valid);
    else {
      const bad = mutate(valid, op.bodySchema);
      body = bad.raw ?? (bad.body === undefined ? undefined : JSON.stringify(bad.body));
    }
    if (body !== undefined) headers["content-type"] = "application/json";
  }
  const search = query.size ? `?${query}` : "";
  return { url: `${origin}${p}${search}`, init: { method: op.method, headers, body } };
}

const nextPages: string[] = [];

function learn(op: Operation, params: Context, status: number, body: unknown): void {
  if (!op.served || status >= 300 || !body || typeof body !== "object") return;
  const record = body as Record<string, unknown>;
  const next = (record.next as { page?: string } | undefined)?.page;
  if (next) {
    nextPages.push(next);
    if (nextPages.length > 50) nextPages.shift();
  }
  const segment = /\/([\w-]+)$/.exec(op.template)?.[1];
  const param = segment && itemParam.get(segment);
  if (!param) return;
  const items = Array.isArray(record.items) ? (record.items as Record<string, unknown>[]) : [record];
  for (const item of items) {
    const id = param === "specSlug" ? item.slug : item.id;
    if (typeof id !== "string") continue;
    remember(param, { ...params, [param]: id });
    if (op.method !== "GET") {
      counts.created[param] = (counts.created[param] ?? 0) + 1;
      const pool = pools.get(param) ?? [];
      if (pool.length > POOL_CAP) {
        const oldest = pool[0] as Context;
        const del = deleteOps.find(
          (d) => d.template.endsWith(`/{${param}}`) && d.params.every((p) => oldest[p] !== undefined),
        );
        if (del) pendingDeletes.push({ op: del, params: oldest });
        forget(param, oldest[param] as string);
      }
    }
  }
}

async function one(): Promise<void> {
  let op: Operation;
  let params: Context;
  const queued = pendingDeletes.shift();
  if (queued) {
    op = queued.op;
    params = queued.params;
  } else {
    op = chance(0.05) ? pick(unserved) : pickWeighted(served);
    params = fillParams(op);
    // The fixtures stay: deleting them would turn the rest of the run into 404s (and a fuzzer's random DELETE of
    // them tells nothing a random id does not).
    const target = op.params.at(-1);
    if (op.method === "DELETE" && target && fixtureIds.has(params[target] as string))
      params[target] = randomText(6, 20);
  }
  const { url, init } = requestFor(op, params);
  counts.sent += 1;
  let status = 0;
  try {
    const res = await fetch(url, init);
    status = res.status;
    const text = await res.text();
    if (res.headers.get("content-type")?.includes("json") && text) learn(op, params, status, JSON.parse(text));
  } catch (err) {
    status = -1;
    if (process.env.SOAK_DEBUG) console.error(op.method, url, err);
  }
  counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  if (op.method === "DELETE" && status >= 200 && status < 300) {
    const param = op.params.at(-1) as string;
    counts.deleteAnswered2xx[param] = (counts.deleteAnswered2xx[param] ?? 0) + 1;
    forget(param, params[param] as string);
  }
}

/** Writes and reads more often than deletes, so that the store holds objects to address (POOL_CAP bounds them). */
const WEIGHT: Record<string, number> = { GET: 1, POST: 2, PUT: 2, PATCH: 1, DELETE: 0.3 };
const totalWeight = served.reduce((sum, o) => sum + (WEIGHT[o.method] ?? 1), 0);
function pickWeighted(ops: Operation[]): Operation {
  let r = random() * totalWeight;
  for (const o of ops) {
    r -= WEIGHT[o.method] ?? 1;
    if (r <= 0) return o;
  }
  return ops.at(-1) as Operation;
}

const samples: { minute: number; rssKb: number; sent: number; perSecond: number; liveMbAfterFullGc?: number }[] = [];
const t0 = Date.now();
let lastSent = 0;
let nextSampleAt = t0 + 60_000;
const intervalMs = 1000 / ratePerSecond;
let due = t0;
while (Date.now() - t0 < durationMs) {
  await one();
  due += intervalMs;
  const wait = due - Date.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  else if (wait < -1000) due = Date.now();
  if (Date.now() >= nextSampleAt) {
    const minute = Math.round((Date.now() - t0) / 60_000);
    const sample = {
      minute,
      rssKb: rssKb(),
      sent: counts.sent,
      perSecond: Math.round((counts.sent - lastSent) / 60),
      ...heap,
    };
    samples.push(sample);
    lastSent = counts.sent;
    nextSampleAt += 60_000;
    console.log(JSON.stringify(sample));
  }
}

// ---- the end: what the log says, what the lists show

const endRssKb = rssKb();
const log = await fetch(`${origin}/__admin/requests`);
const kept = ((await log.json()) as unknown[]).length;
const counters = (await (await fetch(`${origin}/__admin/counters`)).json()) as Record<string, number>;
const auth = { authorization: `Bearer ${started.token}` };
async function listAll(p: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let page: string | undefined;
  do {
    const res = await fetch(`${started.url}${p}?limit=100${page ? `&page=${encodeURIComponent(page)}` : ""}`, {
      headers: auth,
    });
    if (!res.ok) return out;
    const body = (await res.json()) as { items: Record<string, unknown>[]; next?: { page: string } };
    out.push(...body.items);
    page = body.next?.page;
  } while (page);
  return out;
}
const visible: Record<string, number> = {};
const add = (k: string, n: number) => {
  visible[k] = (visible[k] ?? 0) + n;
};
for (const org of [started.organizationId, started.secondOrganizationId]) {
  for (const kind of ["spaces", "collections", "teams", "openapi", "saml"])
    add(kind, (await listAll(`/orgs/${org}/${kind}`)).length);
  const sites = await listAll(`/orgs/${org}/sites`);
  add("sites", sites.length);
  for (const site of sites) {
    for (const kind of ["sections", "section-groups", "site-spaces", "share-links", "redirects"]) {
      add(kind, (await listAll(`/orgs/${org}/sites/${site.id}/${kind}`)).length);
    }
  }
}
child.kill("SIGTERM");

const first = samples[0];
const summary = {
  minutes: Number(args.minutes),
  ratePerSecond,
  seed: Number(args.seed),
  rssKbAt1Minute: first?.rssKb,
  rssKbAtEnd: endRssKb,
  ratio: first ? Math.round((endRssKb / first.rssKb) * 1000) / 1000 : undefined,
  requestsSent: counts.sent,
  logEntriesKept: kept,
  logEntriesDropped: Number(log.headers.get("x-request-log-dropped")),
  logLimit: Number(log.headers.get("x-request-log-limit")),
  counterKeys: Object.keys(counters).length,
  heapAtEnd: heap,
  byStatus: counts.byStatus,
  created: counts.created,
  deleteAnswered2xx: counts.deleteAnswered2xx,
  visibleAtEnd: visible,
  samples,
};
console.log(JSON.stringify(summary, null, 2));
if (args.out) writeFileSync(args.out, `${JSON.stringify(summary, null, 2)}\n`);
