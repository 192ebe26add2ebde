import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, type Json, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, upConsistent } from "./harness";

const example = path.resolve(__dirname, "../../examples/docs-site");

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs: Record<string, unknown>;
}

/**
 * The docs-site example's navigation order, branding and visitor authentication through the real CLI: the declared
 * order on the API after `up`, a theme changed by hand seen by `preview --refresh` and put back by `up --refresh`
 * (while a part the program does not declare keeps its hand edit), the signing key `[secret]` wherever the CLI shows
 * it, and the warning for a visitor-auth site left without its SiteVisitorAuth. Reordering by hand is
 * test/e2e/site-order.test.ts's.
 */
describe("the docs site's order, branding and visitor authentication through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let program: string;

  const api = (method: string, apiPath: string, body?: unknown) => callApi(emulator, method, apiPath, body);
  const resource = async (name: string) => {
    const resources: StateResource[] = (await stack.exportStack()).deployment.resources ?? [];
    const found = resources.find((r) => r.urn.endsWith(`::${name}`));
    if (!found?.id) throw new Error(`no resource named ${name} in the state`);
    return found;
  };
  const sitePath = async (name: string) => `/orgs/${emulator.organizationId}/sites/${(await resource(name)).id}`;
  const customization = async () => (await api("GET", `${await sitePath("docs")}/customization`)).body as Json;
  /** A change made in the app: the API has only the full replacement, so read, change and write it all back. */
  const editByHand = async (change: (settings: Json) => void) => {
    const { updatedAt: _updatedAt, ...settings } = await customization();
    change(settings);
    expect((await api("PUT", `${await sitePath("docs")}/customization`, settings)).status).toBe(200);
  };
  const writeProgram = (text: string) => writeFileSync(path.join(stack.workspace.workDir, "index.ts"), text);

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "site-branding-e2e-token" });
    program = readFileSync(path.join(example, "index.ts"), "utf8");
    const files = { "index.ts": program, "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8") };
    stack = await makeStack(await makeProject("site-branding", files, { typescript: true }), emulator);
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("up gives the declared navigation order, the branding and the sign-in settings on the API", async () => {
    await upConsistent(stack);
    const structure = (await api("GET", `${await sitePath("docs")}/structure`)).body as Json;
    expect(structure.structure.map((item: Json) => item.title)).toEqual(["Product"]);
    const [guides, apiReference] = structure.structure[0].sections as Json[];
    expect([guides.title, apiReference.title]).toEqual(["Guides", "API reference"]);
    const guidesSection = await resource("guides");
    expect(guides.siteSpaces.map((s: Json) => s.id)).toEqual([
      guidesSection.outputs.siteSpaceId,
      (await resource("changelog")).id,
    ]);

    const settings = await customization();
    expect(settings.styling).toMatchObject({ theme: "bold", primaryColor: { light: "#0B5FFF", dark: "#6EA8FF" } });
    expect(settings.header.links.map((link: Json) => link.title)).toEqual(["Status", "Support"]);
    const auth = (await api("GET", `${await sitePath("partners")}/publishing/auth`)).body as Json;
    expect(auth).toMatchObject({ backend: "custom", fallbackURL: "https://auth.acme.example/docs/login" });
  });

  it("a theme changed by hand shows in preview --refresh and up --refresh puts it back; an undeclared part keeps its edit", async () => {
    await editByHand((settings) => {
      settings.styling.theme = "muted";
      settings.footer.copyright = "© Acme, edited in the app";
    });
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/docs:SiteCustomization[^\n]*branding/);
    expect(preview.stdout).not.toContain("copyright");

    const up = await upConsistent(stack, { refresh: true });
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 1 });
    const settings = await customization();
    expect(settings.styling.theme).toBe("bold");
    expect(settings.footer.copyright).toBe("© Acme, edited in the app");
    expect(changes((await stack.preview({ refresh: true })).changeSummary)).toEqual({});
  });

  it("the signing key is [secret] in stack output, in preview --diff and up --diff of a rotation, and ciphertext in the state", async () => {
    const before = (await stack.outputs()).partnerSigningKey;
    expect(before?.secret).toBe(true);
    const key = before?.value as string;
    expect(key.length).toBeGreaterThan(20);
    const output = await runPulumi(stack, ["stack", "output"]);
    expect(output.code, output.output).toBe(0);
    expect(output.output).toMatch(/partnerSigningKey\s+\[secret\]/);
    expect(output.output).not.toContain(key);

    writeProgram(program.replace('rotation: { quarter: "2026-Q4" }', 'rotation: { quarter: "2027-Q1" }'));
    for (const args of [
      ["preview", "--diff", "--show-sames"],
      ["up", "--diff", "--yes", "--show-sames"],
    ]) {
      const diffRun = await runPulumi(stack, args);
      expect(diffRun.code, diffRun.output.slice(-2000)).toBe(0);
      expect(diffRun.output).toContain("2027-Q1");
      const keyLines = diffRun.output.split("\n").filter((line) => /\b(privateKey|partnerSigningKey)\s*:/.test(line));
      expect(keyLines.length, diffRun.output.slice(-3000)).toBeGreaterThan(0);
      for (const line of keyLines) expect(line).toContain("[secret]");
      expect(diffRun.output).not.toContain(key);
    }
    const rotated = (await api("GET", `${await sitePath("partners")}/publishing/auth`)).body.privateKey as string;
    expect(rotated).not.toBe(key);
    expect((await stack.outputs()).partnerSigningKey?.value).toBe(rotated);

    const stored = await exportAsStored(stack);
    expect(stored).not.toContain(rotated);
    expect(stored).not.toContain(key);
    const state = JSON.parse(stored).deployment.resources as StateResource[];
    const signIn = state.find((r) => r.urn.endsWith("::partner-sign-in"));
    expect(signIn?.outputs.privateKey).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
  });

  it("a visitor-auth site without SiteVisitorAuth is warned about at preview", async () => {
    const withoutSignIn = program
      .replace(/const partnerSignIn = new docs\.SiteVisitorAuth\([\s\S]*?\n\}\);\n/, "")
      .replace(/export const partnerSigningKey = [^\n]*\n/, "");
    expect(withoutSignIn).not.toContain("SiteVisitorAuth(");
    writeProgram(withoutSignIn);
    const preview = await runPulumi(stack, ["preview"]);
    expect(preview.code, preview.output.slice(-2000)).toBe(0);
    expect(preview.output).toContain('Site "Acme Partner Portal"');
    expect(preview.output).toMatch(/has visibility: "visitor-auth" but the program declares no SiteVisitorAuth for it/);
    writeProgram(program);
    const withSignIn = await runPulumi(stack, ["preview"]);
    expect(withSignIn.output).not.toContain("declares no SiteVisitorAuth");
  });
});
