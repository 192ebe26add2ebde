import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack, runPulumi, upConsistent } from "./harness";

/** A token no other string of a run can contain by chance. */
const TOKEN = "tok-e2e-secret-7f3a9c1d5b";

const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const site = new docs.Site("docs", { organizationId, title: "Secret Docs", published: true });
const link = new docs.SiteShareLink("review", { organizationId, siteId: site.id, name: config.get("linkName") ?? "Reviewers" });
exports.reviewUrl = link.url;
const certificate = config.get("certificate");
if (certificate) new docs.SamlProvider("sso", { organizationId, label: "Okta", certificate: pulumi.secret(certificate) });
`;

/** Every file under a directory (the stack's PULUMI_HOME, its backend) whose text contains `needle`. */
function filesContaining(root: string, needle: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => path.join(root, file))
    .filter((file) => statSync(file).isFile() && readFileSync(file).includes(needle));
}

/**
 * The token never leaves the process that needs it (not in `-v=9` logs, errors, the state or PULUMI_HOME), a share
 * link's url stays secret in every output and diff, and plain http to another machine is refused before anything is
 * sent.
 */
describe("secrets and transport through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: TOKEN });
    dir = await makeProject("secrets", { "index.js": program });
    stack = await makeStack(dir, emulator);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("a token from DOCS_API_TOKEN appears nowhere: not in up -v=9 output, the state, PULUMI_HOME or the backend", async () => {
    const up = await runPulumi(stack, ["up", "--yes", "--logtostderr", "-v=9"]);
    expect(up.code, up.output.slice(-2000)).toBe(0);
    // The run did log verbosely and did send the token: the checks below are not vacuous.
    expect(up.output.length).toBeGreaterThan(100_000);
    expect(emulator.requests().length).toBeGreaterThan(0);
    expect(up.output).not.toContain(TOKEN);
    expect(filesContaining(path.join(dir, ".pulumi-home"), TOKEN)).toEqual([]);
    expect(filesContaining(path.join(dir, ".state"), TOKEN)).toEqual([]);
    const exported = await runPulumi(stack, ["stack", "export", "--show-secrets"]);
    expect(exported.output).not.toContain(TOKEN);
  });

  it("a share link's url is [secret] in outputs and in preview --diff and up --diff after a name change", async () => {
    const output = (await stack.outputs()).reviewUrl;
    expect(output?.secret).toBe(true);
    const url = output?.value as string;
    expect(url).toMatch(/\?token=/);
    const shareToken = new URL(url).searchParams.get("token") as string;

    const outputs = await runPulumi(stack, ["stack", "output"]);
    expect(outputs.output).toContain("[secret]");
    expect(outputs.output).not.toContain(shareToken);

    await stack.setConfig("linkName", { value: "Renamed reviewers" });
    for (const args of [
      ["preview", "--diff", "--show-sames"],
      ["up", "--diff", "--yes", "--show-sames"],
    ]) {
      const diffRun = await runPulumi(stack, args);
      expect(diffRun.code, diffRun.output.slice(-2000)).toBe(0);
      expect(diffRun.output).toContain("Renamed reviewers");
      // Wherever a diff shows a url (the resource's output, the stack's reviewUrl), it shows it as [secret].
      const urlLines = diffRun.output.split("\n").filter((line) => /\b(url|reviewUrl)\s*:/.test(line));
      for (const line of urlLines) expect(line).toContain("[secret]");
      expect(diffRun.output).not.toContain(shareToken);
      expect(diffRun.output).not.toContain(TOKEN);
    }
    await upConsistent(stack);
  });

  it("a secret certificate over the limit fails preview naming the resource, property and rule, never its value", async () => {
    // Random, so that no part of it can turn up in the output by chance; over SamlProvider.certificate's 10000.
    const certificate = randomBytes(9_000).toString("base64");
    await stack.setConfig("certificate", { value: certificate });
    try {
      for (const args of [["preview"], ["preview", "--diff"]]) {
        const failed = await runPulumi(stack, args);
        expect(failed.code, failed.output.slice(-2000)).not.toBe(0);
        expect(failed.output).toMatch(/SamlProvider/);
        expect(failed.output).toMatch(/sso/);
        expect(failed.output).toMatch(/certificate: .*10000/);
        expect(failed.output).toContain("value not shown");
        const WINDOW = 16;
        const leaked = [];
        for (let i = 0; i + WINDOW <= certificate.length; i += 1) {
          if (failed.output.includes(certificate.slice(i, i + WINDOW))) leaked.push(i);
        }
        expect(leaked).toEqual([]);
      }
    } finally {
      await stack.removeConfig("certificate");
    }
  });

  it("an API error names the resource and the API's answer, never the token", async () => {
    const wrong = await runPulumi(stack, ["preview", "--refresh"], { DOCS_API_TOKEN: `${TOKEN}-revoked` });
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/401/);
    expect(wrong.output).toMatch(/DOCS_API_TOKEN/);
    expect(wrong.output).not.toContain(TOKEN);
    // One error per resource, shown where the CLI shows a resource's error (its progress line and Diagnostics): not
    // the provider host's stderr copy besides (`UnauthorizedError: …: `), nor the sentence about the configuration
    // saved by the last `up`, which a token from the environment does not depend on.
    const failures = wrong.output.split("\n").filter((line) => line.includes("401 Unauthorized"));
    const perResource = new Map<string, number>();
    for (const line of failures) {
      const subject = /(\w+ "[^"]+" read):/.exec(line)?.[1] ?? line;
      perResource.set(subject, (perResource.get(subject) ?? 0) + 1);
    }
    expect(perResource.size).toBeGreaterThan(1);
    expect(
      [...perResource.values()].every((count) => count === 2),
      JSON.stringify([...perResource]),
    ).toBe(true);
    expect(wrong.output).not.toContain("UnauthorizedError");
    expect(wrong.output).not.toContain("saved in the state");
    expect(failures.filter((line) => line.trimEnd().endsWith(":"))).toEqual([]);
  });

  it("refuses plain http to another machine before sending anything, naming the URL and DOCS_API_URL", async () => {
    const insecure = "http://docs.example.invalid/v1";
    emulator.clearRequests();
    for (const args of [
      ["preview", "--refresh"],
      ["up", "--refresh", "--yes"],
    ]) {
      const refused = await runPulumi(stack, args, { DOCS_API_URL: insecure });
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(`The API URL "${insecure}"`);
      expect(refused.output).toContain("DOCS_API_URL");
      expect(refused.output).not.toContain(TOKEN);
    }
    expect(emulator.requests()).toEqual([]);
  });
});

/**
 * A token given as secret stack config is ciphertext in the state, but the engine logs every provider's
 * configuration in plaintext at -v=9: what the README's advice (DOCS_API_TOKEN in CI) rests on.
 */
describe("a token in secret stack config", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: TOKEN });
    dir = await makeProject("secrets-config", { "index.js": program });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("is ciphertext in the stack file and the state, and plaintext in the engine's -v=9 log", async () => {
    const up = await runPulumi(stack, ["up", "--yes", "--logtostderr", "-v=9"]);
    expect(up.code, up.output.slice(-2000)).toBe(0);
    expect(filesContaining(path.join(dir, ".state"), TOKEN)).toEqual([]);
    expect(filesContaining(path.join(dir, ".pulumi-home"), TOKEN)).toEqual([]);
    expect(readFileSync(path.join(dir, `Pulumi.${stack.name}.yaml`), "utf8")).not.toContain(TOKEN);
    expect(up.output).toContain(TOKEN);
  });
});
