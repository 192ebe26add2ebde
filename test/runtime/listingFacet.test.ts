import { describe, expect, it } from "vitest";
import { z } from "zod";
import { enumerationOrder, siteRootKind } from "../../provider/framework/enumerate";
import { API_ID_PATTERN, idRef } from "../../provider/framework/kind";
import { referencesOf } from "../../provider/framework/references";
import { definitions } from "../../provider/registry";

const byKind = new Map(definitions.map((definition) => [definition.kind, definition]));

/** Id inputs that name no object of a kind: the organization (preflight reads it on its own) and mixed lists. */
const NOT_REFERENCES = new Set(["organizationId", "SiteStructure.order"]);

type JsonNode = { pattern?: string; items?: JsonNode; anyOf?: JsonNode[] };
const isId = (node: JsonNode): boolean =>
  node.pattern === API_ID_PATTERN.source ||
  (node.items !== undefined && isId(node.items)) ||
  (node.anyOf ?? []).some(isId);

describe("the listing-and-references facet: every kind declares how its objects are found", () => {
  for (const definition of definitions) {
    const { kind, listing, imported, parent } = definition;

    it(`${kind}: says how \`docs-platform import\` declares it, and is listed if import declares it`, () => {
      expect(imported, `${kind}.imported`).toBeDefined();
      if (imported && !("never" in imported)) expect(listing, `${kind}.listing`).toBeDefined();
    });

    it(`${kind}: its parent is a listed kind, named by an input that refers to it`, () => {
      if (!parent) return;
      expect(byKind.get(parent.kind)?.listing, `${kind}.parent: ${parent.kind} has no listing`).toBeDefined();
      expect(referencesOf(definition)).toContainEqual({ input: parent.input, kind: parent.kind, many: false });
    });

    it(`${kind}: every id input declares the kind it refers to (idRef), and that kind is listed`, () => {
      const root = z.toJSONSchema(definition.inputs, { io: "input", unrepresentable: "any" }) as {
        properties?: Record<string, JsonNode>;
      };
      const ids = Object.entries(root.properties ?? {})
        .filter(([input, node]) => isId(node) && !NOT_REFERENCES.has(input) && !NOT_REFERENCES.has(`${kind}.${input}`))
        .map(([input]) => input);
      const references = referencesOf(definition);
      expect(references.map((reference) => reference.input).sort()).toEqual(ids.sort());
      for (const reference of references) {
        expect(byKind.get(reference.kind)?.listing, `${kind}.${reference.input} → ${reference.kind}`).toBeDefined();
      }
    });
  }

  it("enumerates parents before their children: organization-level kinds, then the site family from its root", () => {
    const order = enumerationOrder(definitions).map((definition) => definition.kind);
    for (const definition of definitions) {
      const parent = definition.listing && definition.parent?.kind;
      if (parent)
        expect(order.indexOf(parent), `${definition.kind} after ${parent}`).toBeLessThan(
          order.indexOf(definition.kind),
        );
    }
    expect(siteRootKind(definitions)).toBe("Site");
    expect(order[0]).toBe("OrganizationSettings");
  });

  it("finds references however the id is wrapped: a list of ids, and a union whose id is not its first member", () => {
    const group = definitions.find((definition) => definition.kind === "SiteSectionGroup");
    expect(group && referencesOf(group)).toContainEqual({ input: "sectionIds", kind: "SiteSection", many: true });
    const inputs = z.strictObject({ spaceId: z.union([z.null(), idRef("Space")]), note: z.string() });
    expect(referencesOf({ inputs })).toEqual([{ input: "spaceId", kind: "Space", many: false }]);
  });

  it("names what each reference checks: the kinds referred to are the ones preflight lists", () => {
    const referred = new Set(definitions.flatMap((definition) => referencesOf(definition).map((r) => r.kind)));
    expect([...referred].sort()).toEqual(
      [
        "Collection",
        "IntegrationInstallation",
        "OrganizationMember",
        "Site",
        "SiteSection",
        "SiteSectionGroup",
        "SiteSpace",
        "Space",
        "Team",
      ].sort(),
    );
  });
});
