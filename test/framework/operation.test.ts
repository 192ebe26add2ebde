import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { ENV_KEYS } from "../../provider/framework/settings";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { captureStderr } from "../support/log";

/**
 * What one engine operation accumulates lives in its Operation, so two operations of one process see nothing of each
 * other: a module-level registry anywhere would leak one's clients, caches or verdicts into the other.
 */
const fixture = useEmulator();
captureStderr();
let one: Operation;
let other: Operation;
beforeEach(() => {
  one = new Operation(definitions);
  other = new Operation(definitions);
});
afterEach(() => {
  delete process.env[ENV_KEYS.preflight];
  one.close();
  other.close();
});

describe("two operations side by side", () => {
  it("have their own clients, listings and lifecycles", () => {
    expect(one.connections.apiClient()).toBe(one.connections.apiClient());
    expect(other.connections.apiClient()).not.toBe(one.connections.apiClient());
    expect(one.context().listings).toBe(one.context().listings);
    expect(other.context().listings).not.toBe(one.context().listings);
    expect(lifecycle("Site", one)).toBe(lifecycle("Site", one));
    expect(lifecycle("Site", other)).not.toBe(lifecycle("Site", one));
  });

  it("give a resource with its own connection its own client and listings, the same ones every time", () => {
    const connection = { apiUrl: fixture.emulator.url, token: "another-token" };
    const own = one.context(connection);
    expect(one.context(connection).listings).toBe(own.listings);
    expect(one.context(connection).client).toBe(own.client);
    expect(own.listings).not.toBe(one.context().listings);
    expect(own.client).not.toBe(one.context().client);
  });

  it("close their clients when they end", async () => {
    const closed = vi.spyOn(one.connections.apiClient(), "close");
    one.close();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it("each loads preflight's listings for itself, once", async () => {
    process.env[ENV_KEYS.preflight] = "true";
    const parentId = await fixture.makeCollection("Handbooks");
    fixture.emulator.clearRequests();
    const inputs = { organizationId: fixture.org(), title: "Docs", parentId };
    const verified = [`GET /v1/orgs/${fixture.org()}`, `GET /v1/orgs/${fixture.org()}/collections`];
    expect((await lifecycle("Collection", one).check({}, inputs)).failures).toBeUndefined();
    expect(fixture.calls()).toEqual(verified);
    fixture.emulator.clearRequests();
    expect((await lifecycle("Collection", other).check({}, inputs)).failures).toBeUndefined();
    expect(fixture.calls()).toEqual(verified);
    fixture.emulator.clearRequests();
    expect((await lifecycle("Collection", one).check({}, inputs)).failures).toBeUndefined();
    expect(fixture.calls()).toEqual([]);
  });

  it("judge only the resources each saw: duplicates, companions and adoptions", async () => {
    const settings = { organizationId: fixture.org(), title: "Acme" };
    expect((await lifecycle("OrganizationSettings", one).check({}, settings)).failures).toBeUndefined();
    expect(
      (await lifecycle("OrganizationSettings", other).check({}, { ...settings, title: "Other" })).failures,
    ).toBeUndefined();
    expect((await lifecycle("OrganizationSettings", one).check({}, { ...settings, title: "Other" })).failures).toEqual([
      expect.objectContaining({ property: "organizationId" }),
    ]);

    await lifecycle("Site", one).check(
      {},
      { organizationId: fixture.org(), title: "Handbook", visibility: "visitor-auth" },
    );
    await lifecycle("Collection", one).check({}, { organizationId: fixture.org(), title: "Docs", importId: "abcdef" });
    expect(one.companions.missing()).toEqual([expect.stringMatching(/^Site "Handbook" has visibility/)]);
    expect(one.adoptions.notices()).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^1 to adopt/) }),
    ]);
    expect(other.companions.missing()).toEqual([]);
    expect(other.adoptions.notices()).toEqual([]);
    expect(other.closingNotices()).toEqual([]);
    expect(one.closingNotices()).toHaveLength(2);
  });
});

/**
 * Module-level bindings of provider/ that hold mutable state on purpose, by `<file> <name>`, each with why it is not
 * the state of one operation. Anything else mutable at module level is a registry that belongs in the Operation.
 */
const PROCESS_WIDE: Record<string, string> = {
  "provider/runtime.ts operation": "the process's operation itself, replaced only where a new one starts",
  "provider/framework/settings.ts stackConfig":
    "the stack's docs: settings from configure: the process's configuration, read like its environment",
  "provider/framework/settings.ts waitReporter": "where long rate-limit waits are reported: an output, not state",
  "provider/framework/log.ts sink": "where kinds' log lines go: an output, not state",
  "provider/framework/notices.ts sink": "where notices go (stderr, or a plugin's engine log): an output, not state",
  "provider/client/rateLimit.ts limiters":
    "the API's budget per token, which every operation and client of the process spends together",
  "provider/client/halt.ts controller":
    "the halt of every client once the engine is gone: the process's, since the process serves that one engine",
  "provider/client/halt.ts onTheWire": "the requests of the process already sent, which a halt gives their grace",
  "provider/client/halt.ts settledWaiters": "who waits for those requests to settle after a halt: the process's",
  "provider/framework/settings.ts waitPeriods":
    "the rate-limit wait periods being told, one line each: the limiters they report on are process-wide",
  // Constants: filled once when the module loads and never changed.
  "provider/client/transport.ts IDEMPOTENT": "a constant set",
};

/** Top-level `let`/`var`, `const x = new …(…)` and static `new …(…)` fields, except those typed read-only. */
function mutableBindings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const readOnlyType = (type: ts.TypeNode | undefined) =>
    type !== undefined && /^(ReadonlySet|ReadonlyMap|ReadonlyArray)\b/.test(type.getText(source));
  const created = (value: ts.Expression | undefined): boolean => {
    if (value === undefined) return false;
    if (ts.isAsExpression(value) || ts.isSatisfiesExpression(value) || ts.isParenthesizedExpression(value))
      return created(value.expression);
    return ts.isNewExpression(value);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        if (constant && (!created(declaration.initializer) || readOnlyType(declaration.type))) continue;
        found.push(declaration.name.getText(source));
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Static;
        if (ts.isPropertyDeclaration(member) && isStatic && created(member.initializer) && !readOnlyType(member.type))
          found.push(`${statement.name?.getText(source)}.${member.name.getText(source)}`);
      }
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("module-level state in provider/", () => {
  const root = join(__dirname, "../..");
  const bindings = sourceFiles(join(root, "provider")).flatMap((file) =>
    mutableBindings(file).map((name) => `${relative(root, file)} ${name}`),
  );

  it("is only the operation's and what is process-wide on purpose", () => {
    expect(bindings.filter((binding) => !(binding in PROCESS_WIDE))).toEqual([]);
  });

  it("still has every binding allowed above (a stale entry would allow a new registry of that name)", () => {
    expect(Object.keys(PROCESS_WIDE).filter((binding) => !bindings.includes(binding))).toEqual([]);
  });

  it("finds a registry however it is declared, and takes constants and instance fields for what they are", () => {
    const file = join(mkdtempSync(join(tmpdir(), "registries-")), "sample.ts");
    writeFileSync(
      file,
      [
        "let counter = 0;",
        "var legacy;",
        "const seen = new Map<string, string>();",
        "export const told = new Set<string>() as Set<string>;",
        'const FIXED: ReadonlySet<string> = new Set(["a"]);',
        "const KEYS = { a: 1 } as const;",
        "const pattern = /a/;",
        "export class Cache {",
        "  static readonly entries = new Map<string, string>();",
        "  private readonly own = new Map<string, string>();",
        "}",
      ].join("\n"),
    );
    expect(mutableBindings(file)).toEqual(["counter", "legacy", "seen", "told", "Cache.entries"]);
  });
});
