import { describe, expect, it } from "vitest";
import { emitProgram, literal } from "../../cli/emit";
import type { Walk, WalkedObject } from "../../cli/walk";
import { biomeCheck } from "./biome";

const ORG = "Org0000000000000000A";

/** One object of every kind, related the way an organization relates them. */
const objects: WalkedObject[] = [
  // First, as the walk finds it; its default site makes it follow the sites in the program.
  {
    kind: "OrganizationSettings",
    id: ORG,
    title: "Acme",
    inputs: { organizationId: ORG, title: "Acme", defaultSiteId: "Site0000000000000001", sso: false },
  },
  {
    kind: "Collection",
    id: "Col00000000000000001",
    title: "Handbook",
    inputs: { organizationId: ORG, title: "Handbook", description: "How we work", defaultLevel: "read" },
  },
  {
    kind: "Collection",
    id: "Col00000000000000002",
    title: "Engineering",
    inputs: { organizationId: ORG, title: "Engineering", defaultLevel: null, parentId: "Col00000000000000001" },
  },
  {
    kind: "Team",
    id: "Team0000000000000001",
    title: "Writers",
    inputs: {
      organizationId: ORG,
      title: "Writers",
      members: [
        { user: "User0000000000000001", role: "owner" },
        { user: "User0000000000000002", role: "member" },
      ],
    },
  },
  {
    kind: "SamlProvider",
    id: "Saml0000000000000001",
    title: "Okta",
    inputs: {
      organizationId: ORG,
      label: "Okta",
      entityId: "http://www.okta.com/exk1",
      certificate: `-----BEGIN CERTIFICATE-----\nMIIC\`x\${y}\n-----END CERTIFICATE-----`,
      defaultTeamId: "Team0000000000000001",
      defaultRole: null,
    },
  },
  {
    kind: "OpenApiSpec",
    id: "Spec0000000000000001",
    title: "petstore",
    inputs: { organizationId: ORG, slug: "petstore", sourceUrl: "https://specs.example.com/petstore.json" },
  },
  {
    kind: "Site",
    id: "Site0000000000000001",
    title: "Docs",
    inputs: { organizationId: ORG, title: "Docs", visibility: "public", proxy: null, published: true },
  },
  {
    kind: "SiteSection",
    id: "Sect0000000000000001",
    title: "Guides",
    siteId: "Site0000000000000001",
    inputs: {
      organizationId: ORG,
      siteId: "Site0000000000000001",
      spaceId: "Space000000000000001",
      title: "Guides",
      condition: 'visitor.claims.unsigned.plan == "pro"',
      default: true,
    },
  },
  {
    kind: "SiteSectionGroup",
    id: "Group000000000000001",
    title: "Product",
    siteId: "Site0000000000000001",
    inputs: {
      organizationId: ORG,
      siteId: "Site0000000000000001",
      title: "Product",
      sectionIds: ["Sect0000000000000001"],
    },
  },
  {
    kind: "SiteSpace",
    id: "SiteSp00000000000001",
    title: "Guides",
    siteId: "Site0000000000000001",
    inputs: {
      organizationId: ORG,
      siteId: "Site0000000000000001",
      spaceId: "Space000000000000001",
      sectionId: "Sect0000000000000001",
      path: "guides",
    },
  },
  {
    kind: "SiteShareLink",
    id: "Link0000000000000001",
    title: "Reviewers",
    siteId: "Site0000000000000001",
    inputs: { organizationId: ORG, siteId: "Site0000000000000001", name: "Reviewers", active: false },
  },
  {
    kind: "SiteAdaptiveSchema",
    id: "Site0000000000000001",
    title: "Docs schema",
    siteId: "Site0000000000000001",
    inputs: {
      organizationId: ORG,
      siteId: "Site0000000000000001",
      jsonSchema: {
        type: "object",
        properties: { "is-beta": { type: "boolean", description: "Beta" } },
        additionalProperties: false,
      },
    },
  },
  {
    kind: "SiteVisitorAuth",
    id: "Site0000000000000001",
    title: "Docs sign-in",
    siteId: "Site0000000000000001",
    inputs: { organizationId: ORG, siteId: "Site0000000000000001", fallbackURL: "https://login.example.com/" },
  },
];
const walk: Walk = {
  organizationId: ORG,
  objects,
  problems: [],
  spaces: [
    { id: "Space000000000000001", title: "Product Guide" },
    { id: "Space000000000000009", title: "Unused" },
  ],
  users: [
    { id: "User0000000000000001", title: "Ada Lovelace" },
    { id: "User0000000000000002", title: "Grace Hopper" },
  ],
};
const source = emitProgram(walk, "docs-platform import --organization Org0000000000000000A").source;

/** The statement that declares the resource of this import id and kind. */
function declaration(kind: string, importId: string): string {
  const statements = source.split(/\n(?=const |new |\/\/ )/);
  const found = statements.filter(
    (s) => s.includes(`new docsPlatform.${kind}(`) && s.includes(`importId: "${importId}"`),
  );
  expect(found, `${kind} ${importId}`).toHaveLength(1);
  return found[0]!.trim();
}

describe("the emitted program", () => {
  it("gathers the ids of what it does not manage in constants at the top, only those it uses", () => {
    const top = source.slice(0, source.indexOf("// Collections"));
    expect(top).toContain('import * as docsPlatform from "pulumi-docs-platform";');
    expect(top).toContain(`const organizationId = "${ORG}";`);
    expect(top).toContain('const spaces = {\n  productGuide: "Space000000000000001", // Product Guide\n};');
    expect(top).toContain(
      '  adaLovelace: "User0000000000000001", // Ada Lovelace\n  graceHopper: "User0000000000000002", // Grace Hopper\n',
    );
    expect(source).not.toContain("Space000000000000009");
    expect(source).not.toContain("externalIds");
  });

  it("Collection: a nested one names its parent by reference", () => {
    expect(declaration("Collection", "Col00000000000000001")).toBe(
      'const handbook = new docsPlatform.Collection("handbook", {\n  organizationId,\n  title: "Handbook",\n  description: "How we work",\n  defaultLevel: "read",\n  importId: "Col00000000000000001",\n});',
    );
    expect(declaration("Collection", "Col00000000000000002")).toBe(
      'new docsPlatform.Collection("engineering", {\n  organizationId,\n  title: "Engineering",\n  defaultLevel: null,\n  parentId: handbook.id,\n  importId: "Col00000000000000002",\n});',
    );
  });

  it("Team: members by user constant, one a line", () => {
    expect(declaration("Team", "Team0000000000000001")).toBe(
      'const writers = new docsPlatform.Team("writers", {\n  organizationId,\n  title: "Writers",\n  members: [\n    { user: users.adaLovelace, role: "owner" },\n    { user: users.graceHopper, role: "member" },\n  ],\n  importId: "Team0000000000000001",\n});',
    );
  });

  it("SamlProvider: its team by reference, a certificate as a template literal with its specials escaped", () => {
    expect(declaration("SamlProvider", "Saml0000000000000001")).toBe(
      'new docsPlatform.SamlProvider("okta", {\n  organizationId,\n  label: "Okta",\n  entityId: "http://www.okta.com/exk1",\n  certificate: `-----BEGIN CERTIFICATE-----\nMIIC\\`x\\$' +
        '{y}\n-----END CERTIFICATE-----`,\n  defaultTeamId: writers.id,\n  defaultRole: null,\n  importId: "Saml0000000000000001",\n});',
    );
  });

  it("OpenApiSpec", () => {
    expect(declaration("OpenApiSpec", "Spec0000000000000001")).toBe(
      'new docsPlatform.OpenApiSpec("petstore", {\n  organizationId,\n  slug: "petstore",\n  sourceUrl: "https://specs.example.com/petstore.json",\n  importId: "Spec0000000000000001",\n});',
    );
  });

  it("Site and what lives under it: grouped under the site's heading, every relation a reference", () => {
    expect(source).toContain('// Site "Docs" and what lives under it.\nconst docs = new docsPlatform.Site("docs", {');
    expect(declaration("Site", "Site0000000000000001")).toContain("  proxy: null,\n  published: true,\n");
    expect(declaration("SiteSection", "Sect0000000000000001")).toBe(
      `const guides = new docsPlatform.SiteSection("guides", {\n  organizationId,\n  siteId: docs.id,\n  spaceId: spaces.productGuide,\n  title: "Guides",\n  condition: 'visitor.claims.unsigned.plan == "pro"',\n  default: true,\n  importId: "Sect0000000000000001",\n});`,
    );
    expect(declaration("SiteSectionGroup", "Group000000000000001")).toContain("  sectionIds: [guides.id],\n");
    expect(declaration("SiteSpace", "SiteSp00000000000001")).toBe(
      'new docsPlatform.SiteSpace("guides-space", {\n  organizationId,\n  siteId: docs.id,\n  spaceId: spaces.productGuide,\n  sectionId: guides.id,\n  path: "guides",\n  importId: "SiteSp00000000000001",\n});',
    );
    expect(declaration("SiteShareLink", "Link0000000000000001")).toContain('  name: "Reviewers",\n  active: false,\n');
  });

  it("SiteAdaptiveSchema: the schema as an expanded object literal, its site by reference though it shares the site's id", () => {
    expect(declaration("SiteAdaptiveSchema", "Site0000000000000001")).toBe(
      'new docsPlatform.SiteAdaptiveSchema("docs-schema", {\n  organizationId,\n  siteId: docs.id,\n  jsonSchema: {\n    type: "object",\n    properties: {\n      "is-beta": {\n        type: "boolean",\n        description: "Beta",\n      },\n    },\n    additionalProperties: false,\n  },\n  importId: "Site0000000000000001",\n});',
    );
  });

  it("SiteVisitorAuth: under its site, the site by reference", () => {
    expect(declaration("SiteVisitorAuth", "Site0000000000000001")).toBe(
      'new docsPlatform.SiteVisitorAuth("docs-sign-in", {\n  organizationId,\n  siteId: docs.id,\n  fallbackURL: "https://login.example.com/",\n  importId: "Site0000000000000001",\n});',
    );
  });

  it("OrganizationSettings: after the site it names, which it refers to; the organization stays its constant", () => {
    expect(
      source.endsWith(
        '\n// The organization\'s settings, each at its current value.\nnew docsPlatform.OrganizationSettings("acme", {\n  organizationId,\n  title: "Acme",\n  defaultSiteId: docs.id,\n  sso: false,\n  importId: "Org0000000000000000A",\n});\n',
      ),
    ).toBe(true);
    // Without the site in the program, it keeps its place among the organization-level kinds.
    const alone = emitProgram({ ...walk, objects: objects.filter((o) => o.kind === "OrganizationSettings") }, "import");
    expect(alone.source).toContain('const externalIds = {\n  defaultSite: "Site0000000000000001",\n};');
    expect(alone.source).toContain("  defaultSiteId: externalIds.defaultSite,\n");
  });

  it("ids of objects left out of the walk go into externalIds", () => {
    const partial = emitProgram({ ...walk, objects: objects.filter((o) => o.kind === "SiteSpace") }, "import").source;
    expect(partial).toContain(
      'const externalIds = {\n  site: "Site0000000000000001",\n  section: "Sect0000000000000001",\n};',
    );
    expect(partial).toContain(
      "  siteId: externalIds.site,\n  spaceId: spaces.productGuide,\n  sectionId: externalIds.section,\n",
    );
  });

  it("string literals are quoted the way the formatter would", () => {
    expect(literal("plain")).toBe('"plain"');
    expect(literal('say "hi"')).toBe(`'say "hi"'`);
    expect(literal(`it's "x" and 'y'`)).toBe(`"it's \\"x\\" and 'y'"`);
    expect(literal("a\\b")).toBe('"a\\\\b"');
    expect(literal("line\nbreak")).toBe("`line\nbreak`");
  });

  it("is already formatted and lint-clean for biome", () => {
    expect(biomeCheck(source)).toEqual({ status: 0, fixed: source });
  });
});
