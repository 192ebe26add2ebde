import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support/emulator";

const root = join(__dirname, "../..");
let outDir: string;

/** Compiles emulator/ to CommonJS the way tsc does (without type checking) into a temporary directory. */
function transpileEmulator(): string {
  const dir = mkdtempSync(join(tmpdir(), "emulator-cli-"));
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
    });
  for (const file of walk(join(root, "emulator"))) {
    const out = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    const target = join(dir, relative(root, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out.outputText);
  }
  return dir;
}

function startCli(args: string[]): Promise<{ child: ChildProcess; info: Json }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(outDir, "emulator/cli.js"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        try {
          resolve({ child, info: JSON.parse(out.slice(0, nl)) });
        } catch (e) {
          reject(e);
        }
      }
    });
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`cli exited with ${code}: ${err}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

beforeAll(() => {
  outDir = transpileEmulator();
});

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("docs-platform-emulator CLI", () => {
  it("starts with a shebang line", () => {
    expect(readFileSync(join(root, "emulator/cli.ts"), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("prints one JSON line, serves the API and exits 0 on SIGTERM", async () => {
    const { child, info } = await startCli(["--port", "0", "--token", "cli-token"]);
    try {
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(info.token).toBe("cli-token");
      expect(typeof info.organizationId).toBe("string");
      expect(info.spaceIds.length).toBeGreaterThanOrEqual(3);
      expect(info.userIds.length).toBeGreaterThanOrEqual(3);
      const res = await fetch(`${info.url}/orgs/${info.organizationId}`, {
        headers: { authorization: "Bearer cli-token" },
      });
      expect(res.status).toBe(200);
      const bad = await fetch(`${info.url}/orgs`, { headers: { authorization: "Bearer test-token" } });
      expect(bad.status).toBe(401);
    } finally {
      const exited = exitCode(child);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });

  it("exits 0 on SIGINT too", async () => {
    const { child } = await startCli([]);
    const exited = exitCode(child);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  it("rejects unknown arguments with a non-zero exit", async () => {
    await expect(startCli(["--colour", "red"])).rejects.toThrow(/exited with 2/);
  });

  it("rate-limits per token with --rate-limit R/W", async () => {
    const { child, info } = await startCli(["--rate-limit", "2/1m"]);
    try {
      const get = () => fetch(`${info.url}/orgs`, { headers: { authorization: `Bearer ${info.token}` } });
      const first = await get();
      expect(first.headers.get("x-ratelimit-limit")).toBe("2");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
      expect((await get()).status).toBe(200);
      const limited = await get();
      expect(limited.status).toBe(429);
      // 60 unless a second passed since the window began (a loaded machine).
      expect(await limited.text()).toMatch(
        /^\{"error":\{"code":429,"message":"API rate limit exceeded\. Please try again in (60|59) seconds"\}\}$/,
      );
      expect(limited.headers.get("retry-after")).toBeNull();
    } finally {
      const exited = exitCode(child);
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("rejects a malformed --rate-limit naming the expected shape", async () => {
    await expect(startCli(["--rate-limit", "60 per minute"])).rejects.toThrow(/exited with 2: .*60\/60s/s);
  });

  it("keeps the newest N requests with --request-log-limit N and says how many it dropped", async () => {
    const { child, info } = await startCli(["--request-log-limit", "2"]);
    try {
      for (const path of ["/orgs", "/orgs", `/orgs/${info.organizationId}`]) {
        await (await fetch(`${info.url}${path}`, { headers: { authorization: `Bearer ${info.token}` } })).text();
      }
      const res = await fetch(`${info.url.replace(/\/v1$/, "")}/__admin/requests`);
      expect(res.headers.get("x-request-log-dropped")).toBe("1");
      expect(res.headers.get("x-request-log-limit")).toBe("2");
      expect(((await res.json()) as Json[]).map((e) => e.path)).toEqual([
        "/v1/orgs",
        `/v1/orgs/${info.organizationId}`,
      ]);
    } finally {
      const exited = exitCode(child);
      child.kill("SIGTERM");
      await exited;
    }
  });

  it.each(["-1", "ten", "1.5", "10000001"])("rejects --request-log-limit %s naming the range", async (value) => {
    await expect(startCli(["--request-log-limit", value])).rejects.toThrow(
      /exited with 2: docs-platform-emulator: --request-log-limit must be an integer in 0\.\.10000000/,
    );
  });

  it("--help explains the options and the JSON line on stdout, exit 0", () => {
    const run = spawnSync(process.execPath, [join(outDir, "emulator/cli.js"), "--help"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    for (const word of [
      "--port",
      "--token",
      "--page-size",
      "--openapi-step-ms",
      "--translation-step-ms",
      "--rate-limit",
      "--request-log-limit",
      "DOCS_API_URL",
    ]) {
      expect(run.stdout).toContain(word);
    }
    expect(run.stdout).toMatch(/one JSON line on stdout/);
  });
});
