import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { dynamicType, pluginType } from "../../provider/framework/typeTokens";
import { RULES } from "../../provider/policy/rules";
import { toolchainVars } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { type CliRun, makeProject, makeStack, packedPackage, runPulumi } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const exampleDir = path.join(repoRoot, "examples/policy");
const configFile = path.join(exampleDir, "policy-config.json");
const example = (file: string) => readFileSync(path.join(exampleDir, file), "utf8");

/** One violation as `pulumi preview` prints it under `Policies:`. */
interface Violation {
  level: string;
  rule: string;
  type: string;
  name: string;
  message: string;
}

/** The violations a run printed: a `- [level]  rule  (type: name)` line, the rule's description, then the message. */
function violations(output: string): Violation[] {
  const found: Violation[] = [];
  const entry = /^ +- \[(\w+)\] +(\S+) +\(([^ ]+): ([^)]+)\)\n +.*\n +(.*)$/gm;
  for (const match of output.matchAll(entry)) {
    const [, level, rule, type, name, message] = match;
    found.push({ level: level!, rule: rule!, type: type!, name: name!, message: message! });
  }
  return found.sort((a, b) => a.rule.localeCompare(b.rule) || a.name.localeCompare(b.name));
}

/**
 * What examples/policy/violating breaks, rule by rule: the resource each violation names and its message up to the
 * fix (the fix follows). Every rule of the pack is here; docs-openapi-public-allowed is on in policy-config.json.
 */
interface Expected {
  level: string;
  kind: string;
  name: string;
  message: string;
}
const VIOLATING: Record<string, Expected | Expected[]> = {
  "docs-admin-to-teams": {
    level: "mandatory",
    kind: "SpacePermission",
    name: "lead-admin-guides",
    message:
      'SpacePermission "lead-admin-guides", userId: grants role "admin" to the user "<lead>" rather than to a team.',
  },
  "docs-content-protected": {
    level: "advisory",
    kind: "Space",
    name: "guides",
    message:
      'Space "guides", protect (resource option): is not set, so deleting the resource or replacing it deletes the space and its content.',
  },
  "docs-default-level": {
    level: "advisory",
    kind: "Space",
    name: "guides",
    message:
      'Space "guides", defaultLevel: "admin" is above "edit", the highest role maxLevel of docs-default-level allows.',
  },
  "docs-default-role": {
    level: "mandatory",
    kind: "SamlProvider",
    name: "okta",
    message:
      'SamlProvider "okta", defaultRole: "admin" is above "create", the highest role maxRole of docs-default-role allows.',
  },
  "docs-https-urls": [
    {
      level: "mandatory",
      kind: "SamlProvider",
      name: "okta",
      message: 'SamlProvider "okta", ssoUrl: "http://acme.okta.example/app/docs/exk1acme/sso/saml" is http.',
    },
    {
      level: "mandatory",
      kind: "SiteMcpServer",
      name: "tickets-mcp",
      message: 'SiteMcpServer "tickets-mcp", url: "http://mcp.acme.example/tickets" is http.',
    },
  ],
  "docs-credentials-in-secrets": {
    level: "mandatory",
    kind: "IntegrationInstallation",
    name: "tickets",
    message:
      'IntegrationInstallation "tickets", configuration.apiKey: the key looks like a credential (it matches "api_key" of credentialPatterns), and configuration is stored and shown in plain text.',
  },
  "docs-channel-allow-list": {
    level: "advisory",
    kind: "SiteChannel",
    name: "beta-slack",
    message:
      'SiteChannel "beta-slack", allowedChannels: the builtin:slack channel\'s agent may answer anywhere in the workspace: allowedChannels is not declared.',
  },
  "docs-context-sources": {
    level: "advisory",
    kind: "SiteContextConnection",
    name: "beta-inbox",
    message:
      'SiteContextConnection "beta-inbox", connector: the docs agent would read builtin:email, which allowedConnectors does not list.',
  },
  "docs-git-sync-priority": {
    level: "advisory",
    kind: "GitSyncInstallation",
    name: "beta-git",
    message:
      'GitSyncInstallation "beta-git", priority: is "git" on site "beta", which allowed does not name, so every sync overwrites what editors changed in GitBook.',
  },
  "docs-no-share-links-on-public-sites": {
    level: "mandatory",
    kind: "SiteShareLink",
    name: "launch-leftover",
    message:
      'SiteShareLink "launch-leftover", siteId: site "launch" is public, so the link is a leftover that would give access again if the site were restricted to share links.',
  },
  "docs-openapi-public-allowed": {
    level: "advisory",
    kind: "OpenApiSpec",
    name: "internal-api",
    message:
      'OpenApiSpec "internal-api", visibility: the spec "internal-api" is public (anyone with the link reads it) but is not in allowedSpecs.',
  },
  "docs-public-site-allowed": {
    level: "mandatory",
    kind: "Site",
    name: "launch",
    message:
      'Site "launch", visibility: the site "Launch Notes" is published with visibility "public" but is not in allowedSites.',
  },
  "docs-share-link-named": {
    level: "mandatory",
    kind: "SiteShareLink",
    name: "beta-unnamed",
    message: 'SiteShareLink "beta-unnamed", name: "" is shorter than 1 character(s) (minLength).',
  },
  "docs-share-links-per-site": {
    level: "mandatory",
    kind: "SiteShareLink",
    name: "beta-unnamed",
    message:
      'SiteShareLink "beta-unnamed", siteId: site "beta" would have 4 active share links ("beta-partner-a", "beta-partner-b", "beta-partner-c", "beta-unnamed"), more than maxPerSite (3).',
  },
  "docs-sso-enforced": {
    level: "mandatory",
    kind: "SamlProvider",
    name: "okta",
    message:
      'SamlProvider "okta", organizationId: the organization this SAML provider signs in to has no OrganizationSettings in the stack that enforces SSO (sso: true), so members can still log in with a password.',
  },
  "docs-team-members": {
    level: "advisory",
    kind: "Team",
    name: "reviewers",
    message:
      'Team "reviewers", members: declares no member: the team lists none, and no TeamMember (teamId) or SamlProvider (defaultTeamId) of the stack refers to it.',
  },
  "docs-visitor-auth-configured": {
    level: "mandatory",
    kind: "Site",
    name: "partners",
    message:
      'Site "partners", visibility: is "visitor-auth" but no SiteVisitorAuth of the stack takes the site\'s id as siteId, so nothing declares where readers sign in or holds the signing key.',
  },
};

/** examples/policy/pack installed as a user installs it: the packed package, @pulumi/policy and TypeScript. */
async function installPack(): Promise<string> {
  const dir = path.join(repoRoot, ".e2e", `policy-pack-${process.pid}`);
  for (const old of readdirSync(path.dirname(dir)).filter((name) => name.startsWith("policy-pack-"))) {
    rmSync(path.join(path.dirname(dir), old), { recursive: true, force: true });
  }
  cpSync(path.join(exampleDir, "pack"), dir, { recursive: true, filter: (source) => !source.includes("node_modules") });
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  manifest.dependencies["pulumi-docs-platform"] = `file:${await packedPackage()}`;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: { ...process.env, ...toolchainVars() },
  });
  return dir;
}

/**
 * examples/policy through the real CLI against the emulator: the pack as a directory (PulumiPolicy.yaml, run by our
 * language host's RunPlugin) and as an executable (pack/run-pack), with the example's policy-config.json, on the
 * compliant and the violating program, and on a YAML program through the provider plugin.
 */
describe("the docs policy pack through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let pack: string;
  let dir: string;
  let stack: Stack;
  const useProgram = (source: string) => writeFileSync(path.join(dir, "index.ts"), source);
  const withPack = (command: string[], form: string, config = configFile) =>
    runPulumi(stack, [...command, "--policy-pack", form, "--policy-pack-config", config]);
  const passed = (result: CliRun, form: string) => {
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`✅ docs-platform@v0.1.0 (local: ${form})`);
    expect(violations(result.output)).toEqual([]);
    for (const rule of RULES) expect(result.output).not.toContain(rule.id);
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "policy-e2e-token" });
    pack = await installPack();
    dir = await makeProject(
      "policy-program",
      { "index.ts": example("compliant/index.ts"), "tsconfig.json": example("compliant/tsconfig.json") },
      { typescript: true },
    );
    stack = await makeStack(dir, emulator);
    stack.workspace.envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds.slice(0, 2)) });
    await stack.setConfig("ticketsApiKey", { value: "policy-e2e-tickets-key", secret: true });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("the example's pack and programs compile with tsc against the packed package", async () => {
    const tsc = path.join(pack, "node_modules/typescript/bin/tsc");
    for (const project of ["pack", "compliant", "violating"]) {
      const files = project === "pack" ? pack : dir;
      if (project !== "pack") useProgram(example(`${project}/index.ts`));
      await run(process.execPath, [tsc, "--noEmit", "-p", files]).catch((error) => {
        throw new Error(`tsc of ${project} failed:\n${error.stdout}${error.stderr}`);
      });
    }
  });

  it("as a directory: the compliant program passes every rule", async () => {
    useProgram(example("compliant/index.ts"));
    passed(await withPack(["preview"], pack), pack);
  });

  it("as a directory: the violating program breaks every rule, mandatory ones failing the preview", async () => {
    expect(Object.keys(VIOLATING).sort()).toEqual(RULES.map((rule) => rule.id).sort());
    useProgram(example("violating/index.ts"));
    const result = await withPack(["preview"], pack);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`❌ docs-platform@v0.1.0 (local: ${pack})`);
    const found = violations(result.output);
    const expectedAll = Object.entries(VIOLATING)
      .flatMap(([rule, each]) => (Array.isArray(each) ? each : [each]).map((expected) => ({ rule, ...expected })))
      .sort((a, b) => a.rule.localeCompare(b.rule) || a.name.localeCompare(b.name));
    expect(found.map((v) => `${v.rule} ${v.name}`)).toEqual(expectedAll.map((e) => `${e.rule} ${e.name}`));
    for (const [i, violation] of found.entries()) {
      const expected = expectedAll[i]!;
      expect(violation).toMatchObject({
        level: expected.level,
        type: dynamicType(expected.kind),
        name: expected.name,
      });
      const message = expected.message.replace("<lead>", emulator.userIds[0]!);
      expect(
        violation.message.startsWith(`${message} Fix: `),
        `${violation.message}\nshould start with\n${message}`,
      ).toBe(true);
    }
  });

  it("as an executable: the same verdicts on both programs", async () => {
    const launcher = path.join(pack, "run-pack");
    useProgram(example("violating/index.ts"));
    const byDirectory = violations((await withPack(["preview"], pack)).output);
    const byExecutable = await withPack(["preview"], launcher);
    expect(byExecutable.code).not.toBe(0);
    expect(byExecutable.output).toContain(`❌ docs-platform@v0.1.0 (local: ${launcher})`);
    expect(violations(byExecutable.output)).toEqual(byDirectory);
    useProgram(example("compliant/index.ts"));
    passed(await withPack(["preview"], launcher), launcher);
  });

  it("up of the compliant program passes with known ids, and so does a preview of what the stack now holds", async () => {
    useProgram(example("compliant/index.ts"));
    try {
      passed(await withPack(["up", "--yes"], pack), pack);
      // Stack rules now read the resources' outputs as stored, ids and all.
      passed(await withPack(["preview", "--expect-no-changes"], pack), pack);
    } finally {
      // The content is protected, as the rule asks: unprotect it to clean up.
      await runPulumi(stack, ["state", "unprotect", "--all", "--yes"]);
      const destroy = await runPulumi(stack, ["destroy", "--yes"]);
      expect(destroy.code, destroy.output).toBe(0);
    }
  });

  it("refuses a config naming an unknown rule or setting, or a value of the wrong type, naming each", async () => {
    useProgram(example("compliant/index.ts"));
    const withConfig = async (config: object) => {
      const file = path.join(dir, "bad-policy-config.json");
      writeFileSync(file, JSON.stringify(config));
      const result = await withPack(["preview"], pack, file);
      expect(result.code).not.toBe(0);
      return result.output;
    };
    expect(
      await withConfig({
        "docs-public-site-alowed": { enforcementLevel: "mandatory", allowedSites: ["Acme Docs"] },
        "docs-share-links-per-site": { maxLinks: 2 },
      }),
    ).toMatch(
      /configuring policy pack "docs-platform" at ".*": docs-platform: the policy config is invalid:\n {2}- "docs-public-site-alowed" is not a rule of this policy pack: did you mean "docs-public-site-allowed"\? Fix the name or remove the entry\n {2}- docs-share-links-per-site: "maxLinks" is not a setting of this rule \(its settings are maxPerSite\); remove it or fix its name/,
    );
    expect(await withConfig({ "docs-share-links-per-site": { maxPerSite: "three" } })).toContain(
      "docs-share-links-per-site: maxPerSite: Invalid type. Expected: integer, given: string",
    );
  });

  it("passes a stack with no docs resources quietly", async () => {
    useProgram('export const nothing = "to judge";\n');
    passed(await withPack(["preview"], pack), pack);
  });

  it("matches a share link adopted with `import` to its adopted public site through its literal siteId", async () => {
    const org = `/orgs/${emulator.organizationId}`;
    const site = await callApi(emulator, "POST", `${org}/sites`, { title: "Adopted Docs", visibility: "public" });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const siteId = (site.body as { id: string }).id;
    const link = await callApi(emulator, "POST", `${org}/sites/${siteId}/share-links`, { name: "Old reviewers" });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const linkId = (link.body as { id: string }).id;
    // As `pulumi import` writes it: the link's siteId a literal id, each resource adopted with the `import` option.
    const program = {
      name: "policy-import",
      runtime: "yaml",
      plugins: { providers: [{ name: "docs", path: "node_modules/.bin" }] },
      resources: {
        "adopted-site": {
          type: "docs:Site",
          properties: { title: "Adopted Docs", visibility: "public" },
          options: { import: siteId },
        },
        "adopted-link": {
          type: "docs:SiteShareLink",
          properties: { siteId, name: "Old reviewers" },
          options: { import: `${siteId}/${linkId}` },
        },
      },
    };
    const importDir = await makeProject("policy-import", { "Pulumi.yaml": stringify(program) });
    const importStack = await makeStack(importDir, emulator);
    await importStack.setConfig("docs:organizationId", { value: emulator.organizationId });
    const result = await runPulumi(importStack, ["preview", "--policy-pack", pack, "--policy-pack-config", configFile]);
    expect(result.code, result.output).not.toBe(0);
    expect(violations(result.output)).toContainEqual({
      level: "mandatory",
      rule: "docs-no-share-links-on-public-sites",
      type: pluginType("SiteShareLink"),
      name: "adopted-link",
      message: expect.stringMatching(/^SiteShareLink "adopted-link", siteId: site "adopted-site" is public.* Fix: /),
    });
  });

  it("judges a YAML program's resources (docs:index:<Kind>), matching a share link to its site at preview", async () => {
    const program = {
      name: "policy-yaml",
      runtime: "yaml",
      plugins: { providers: [{ name: "docs", path: "node_modules/.bin" }] },
      resources: {
        okta: { type: "docs:SamlProvider", properties: { label: "Okta", defaultRole: "admin" } },
        site: { type: "docs:Site", properties: { title: "Acme Docs", visibility: "public", published: true } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a YAML program's interpolation.
        link: { type: "docs:SiteShareLink", properties: { siteId: "${site.id}", name: "Reviewers" } },
      },
    };
    const yamlDir = await makeProject("policy-yaml", { "Pulumi.yaml": stringify(program) });
    const yamlStack = await makeStack(yamlDir, emulator);
    await yamlStack.setConfig("docs:organizationId", { value: emulator.organizationId });
    const result = await runPulumi(yamlStack, ["preview", "--policy-pack", pack, "--policy-pack-config", configFile]);
    expect(result.code).not.toBe(0);
    expect(violations(result.output)).toEqual([
      {
        level: "mandatory",
        rule: "docs-default-role",
        type: pluginType("SamlProvider"),
        name: "okta",
        message: expect.stringMatching(/^SamlProvider "okta", defaultRole: "admin" is above "create".* Fix: /),
      },
      {
        level: "mandatory",
        rule: "docs-no-share-links-on-public-sites",
        type: pluginType("SiteShareLink"),
        name: "link",
        message: expect.stringMatching(/^SiteShareLink "link", siteId: site "site" is public.* Fix: /),
      },
      {
        level: "mandatory",
        rule: "docs-sso-enforced",
        type: pluginType("SamlProvider"),
        name: "okta",
        message: expect.stringMatching(/^SamlProvider "okta", organizationId: .* Fix: /),
      },
    ]);
  });
});
