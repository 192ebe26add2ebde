import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, splitAdvice } from "../../cli/main";
import { SPLIT_ADVISED_ABOVE, splitWalk } from "../../cli/split";
import type { Walk, WalkedObject } from "../../cli/walk";
import { restoreEnvAfterEach, runCli, useTempDirs } from "../support/cli";
import { callApi, useEmulator } from "../support/emulator";
import { seedOrganization } from "../support/seed-organization";

const fx = useEmulator();
const tempDir = useTempDirs("docs-platform-split-");
restoreEnvAfterEach("DOCS_API_TOKEN", "DOCS_ORGANIZATION_ID");

const object = (kind: string, id: string, title: string, extra: Partial<WalkedObject> = {}): WalkedObject => ({
  kind,
  id,
  title,
  inputs: {},
  ...extra,
});
const walkOf = (objects: WalkedObject[]): Walk => ({
  organizationId: "org",
  objects,
  problems: [],
  spaces: [],
  users: [],
});

describe("splitWalk: the organization's project and one per site", () => {
  it("an organization without sites gives the organization's project alone", () => {
    const parts = splitWalk(walkOf([object("Team", "t1", "Writers"), object("Space", "s1", "Guides")]), "acme");
    expect(parts.map((part) => part.name)).toEqual(["acme-organization"]);
    expect(parts[0]!.walk.objects.map((o) => o.id)).toEqual(["t1", "s1"]);
  });

  it("a site takes what lives under it and what names it by siteId; its program names the org's spaces by title", () => {
    const parts = splitWalk(
      walkOf([
        object("Space", "s1", "Guides"),
        object("Site", "site1", "Acme Docs"),
        object("SiteSection", "sec1", "Intro", { siteId: "site1", inputs: { siteId: "site1", spaceId: "s1" } }),
        object("SitePermission", "site1/team/t1", "Writers", { inputs: { siteId: "site1", teamId: "t1" } }),
        object("OrganizationSettings", "org", "Acme", { inputs: { defaultSiteId: "site1" } }),
      ]),
      "acme",
    );
    expect(parts.map((part) => [part.name, part.walk.objects.map((o) => o.id)])).toEqual([
      ["acme-organization", ["s1", "org"]],
      ["acme-acme-docs", ["site1", "sec1", "site1/team/t1"]],
    ]);
    expect(parts[1]!.walk.spaces).toEqual([{ id: "s1", title: "Guides" }]);
    expect(parts[1]!.site).toEqual({ id: "site1", title: "Acme Docs" });
    expect(parts[1]!.renamed).toBeUndefined();
  });

  it("a title that makes no project name, or one already taken, gets a valid name, told as renamed", () => {
    const parts = splitWalk(
      walkOf([
        object("Site", "Ab_9", "✨ 文档 ✨"),
        object("Site", "x2", "Docs"),
        object("Site", "x3", "Docs!"),
        object("Site", "x4", "Organization"),
      ]),
      "acme",
    );
    expect(parts.map((part) => [part.name, part.renamed])).toEqual([
      ["acme-organization", undefined],
      ["acme-site-ab-9", "acme-site-ab-9"],
      ["acme-docs", undefined],
      ["acme-docs-2", "acme-docs-2"],
      ["acme-organization-2", "acme-organization-2"],
    ]);
    for (const { name } of parts) expect(name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  });
});

describe("import --split", () => {
  it("writes the organization's project and one per site, the same resources in all as in one project", async () => {
    await seedOrganization(fx.emulator);
    const out = tempDir();
    const io = await runCli(["import", "--organization", fx.org(), "--out", out, "--name", "acme", "--split"]);
    expect(io.code).toBe(EXIT.ok);
    const projects = readdirSync(out).sort();
    expect(projects).toHaveLength(4);
    expect(projects).toContain("acme-organization");
    let resources = 0;
    for (const project of projects) {
      const program = readFileSync(path.join(out, project, "index.ts"), "utf8");
      resources += program.match(/importId: /g)?.length ?? 0;
      expect(readFileSync(path.join(out, project, "Pulumi.yaml"), "utf8")).toMatch(new RegExp(`^name: ${project}\n`));
      expect(io.stderr).toContain(`: project ${project}, `);
      if (project !== "acme-organization") {
        expect(program).toMatch(/new docsPlatform\.Site\(/);
        expect(program).not.toMatch(/new docsPlatform\.(Space|Team|Collection)\(/);
      }
    }
    // The same 90 resources as `import` without --split writes into one project (test/cli/import.test.ts).
    expect(resources).toBe(90);
    expect(existsSync(path.join(out, "index.ts"))).toBe(false);
    expect(io.stderr).toContain("Next, in each project: npm install");
  });

  it("refuses --plugin-json, which names one project's resources", async () => {
    const out = tempDir();
    const args = ["import", "--organization", fx.org(), "--out", out, "--split", "--plugin-json", "x.json"];
    const io = await runCli(args);
    expect(io.code).toBe(EXIT.usage);
    expect(io.stderr).toContain("--split and --plugin-json exclude each other");
  });

  it("refuses --stack without --plugin-json, where it would change nothing", async () => {
    const io = await runCli(["import", "--organization", fx.org(), "--out", tempDir(), "--stack", "prod"]);
    expect(io.code).toBe(EXIT.usage);
    expect(io.stderr).toContain("--stack goes with --plugin-json");
  });
});

describe("import without --split above the advised size", () => {
  it(`warns above ${SPLIT_ADVISED_ABOVE} resources, naming --split and the measured cost; not at or below`, async () => {
    const org = `/orgs/${fx.org()}`;
    const make = async (count: number) => {
      for (let i = 0; i < count; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, count - i) }, (_, j) =>
            callApi(fx.emulator, "POST", `${org}/collections`, { title: `Shelf ${i + j}` }),
          ),
        );
      }
    };
    const existing = ((await callApi(fx.emulator, "GET", `${org}/collections?limit=1000`)).body.items as unknown[])
      .length;
    await make(SPLIT_ADVISED_ABOVE - existing);
    const args = ["import", "--organization", fx.org(), "--kinds", "Collection", "--quiet", "--out"];
    const quiet = await runCli([...args, tempDir()]);
    expect(quiet.code).toBe(EXIT.ok);
    expect(quiet.stderr).not.toContain("--split");
    await make(1);
    const dir = tempDir();
    const warned = await runCli([...args, dir]);
    expect(warned.code).toBe(EXIT.ok);
    expect(warned.stderr).toContain(`docs-platform: ${splitAdvice(SPLIT_ADVISED_ABOVE + 1)}\n`);
    expect(warned.stderr).toContain("--split writes one project for the organization and one per site");
    expect(warned.stderr).toContain("578 s");
  });
});
