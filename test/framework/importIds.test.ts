import { describe, expect, it } from "vitest";
import { importIdFormat, importIdOf, importObject, parseImportId } from "../../provider/framework/importIds";
import type { KindDefinition, Props } from "../../provider/framework/kind";
import { pluginType } from "../../provider/framework/typeTokens";
import { definitions } from "../../provider/registry";
import { currentOperation, lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created } from "../support/lifecycle";

const byKind = new Map(definitions.map((definition) => [definition.kind, definition]));
const definitionOf = (kind: string): KindDefinition => byKind.get(kind)!;
/** `SiteSpace` → `site space`. */
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
/** An id as the API makes them (20 characters), different for every part. */
const idAt = (i: number) => `Part${i}`.padEnd(20, "x");
const ORGANIZATION_OPTIONAL = "[<organizationId>/]";

/** A kind's import id format taken apart: its placeholders in order, and whether the organization may be left out. */
function partsOf(format: string): { placeholders: string[]; optional: boolean } {
  const optional = format.startsWith(ORGANIZATION_OPTIONAL);
  const complete = optional ? `<organizationId>/${format.slice(ORGANIZATION_OPTIONAL.length)}` : format;
  return { placeholders: complete.split("/"), optional };
}

describe("import ids: the format of every registered kind, from its parent chain and id relation", () => {
  it("reads as the reference shows it, for each shape", () => {
    const format = (kind: string) => importIdFormat(definitionOf(kind), definitions);
    expect(format("Collection")).toBe("[<organizationId>/]<id>");
    expect(format("SiteShareLink")).toBe("[<organizationId>/]<siteId>/<id>");
    expect(format("SiteStructure")).toBe("[<organizationId>/]<siteId>");
    expect(format("SiteCustomization")).toBe("[<organizationId>/]<siteId>");
    expect(format("SiteSpaceCustomization")).toBe("[<organizationId>/]<siteId>/<siteSpaceId>");
    expect(format("TeamMember")).toBe("[<organizationId>/]<teamId>/<userId>");
    expect(format("CollectionPermission")).toBe("[<organizationId>/]<collectionId>/<teamId or userId>");
    expect(format("OrganizationSettings")).toBe("<organizationId>");
    expect(format("OrganizationMember")).toBe("<organizationId>/<userId>");
    expect(pluginType("SiteShareLink")).toBe("docs:index:SiteShareLink");
  });

  for (const definition of definitions) {
    const { kind } = definition;
    const format = importIdFormat(definition, definitions);
    const { placeholders, optional } = partsOf(format);
    const complete = placeholders.join("/");
    const filled = placeholders.map((_, i) => idAt(i));
    const relation = definition.id ?? "own";
    /** The parts the resource id is made of: the object's own, the parent's, or the parent's and the other. */
    const idParts = relation === "own" || relation === "parent" ? 1 : 2;
    const parentInputs = placeholders.slice(0, relation === "own" ? -1 : relation === "parent" ? undefined : -1);
    const expectedCount = optional ? `${filled.length} (or ${filled.length - 1}, the organization left out)` : "";

    it(`${kind}: ${format} names the kind's parents by its inputs and agrees with its idFormat`, () => {
      expect(placeholders[0]).toBe("<organizationId>");
      const inputs = Object.keys((definition.inputs as unknown as { shape: Props }).shape);
      // Every parent below the organization is an input of the kind (a grant's target, a share link's site).
      for (const placeholder of parentInputs.slice(1)) expect(inputs).toContain(placeholder.slice(1, -1));
      // The organization may be left out unless it is (part of) the id itself.
      expect(optional).toBe(parentInputs.length > 1 || relation === "own");
      const parentKind = definition.parent?.kind ?? "Organization";
      if (relation === "own") {
        // The prose names the kind's own object: `the share link id` for SiteShareLink.
        const named = /^the ([A-Za-z ]+?) id\b/.exec(definition.idFormat)?.[1]?.toLowerCase();
        expect(named !== undefined && ` ${words(kind)}`.endsWith(` ${named}`), definition.idFormat).toBe(true);
        expect(definition.importId, "an own id is one API id").toBeUndefined();
      } else if (relation === "parent") {
        expect(definition.idFormat.toLowerCase()).toMatch(new RegExp(`^the ${words(parentKind)} id\\b`));
      } else {
        expect(definition.idFormat).toContain(`\`${placeholders.slice(-2).join("/")}\``);
        expect(definition.importId?.safeParse(`${idAt(1)}/${idAt(2)}`).success, "importId takes the pair").toBe(true);
        for (const other of relation.pair.split(" or ")) expect(inputs).toContain(other);
      }
    });

    it(`${kind}: a filled-in import id parses into the id and the parents' ids, and is made again from them`, () => {
      const importId = filled.join("/");
      const parsed = parseImportId(definition, definitions, importId);
      expect(parsed.id).toBe(filled.slice(-idParts).join("/"));
      expect(parsed.parents).toEqual(
        Object.fromEntries(parentInputs.map((placeholder, i) => [placeholder.slice(1, -1), filled[i]])),
      );
      expect(importIdOf(definition, definitions, parsed.id, parsed.parents)).toBe(importId);
      const shorter = filled.slice(1).join("/");
      if (optional) {
        // Left out, the organization is the default one.
        const withDefault = parseImportId(definition, definitions, shorter, "DefaultOrganization0");
        expect(withDefault).toEqual({
          id: parsed.id,
          parents: { ...parsed.parents, organizationId: "DefaultOrganization0" },
        });
        expect(() => parseImportId(definition, definitions, shorter)).toThrow(
          `${kind}: import id "${shorter}" is malformed: it leaves out the organization, and no default organization ` +
            `is set; expected ${format}. Fix: start it with \`<organizationId>/\`, or set \`docs:organizationId\` ` +
            "(or DOCS_ORGANIZATION_ID).",
        );
      } else if (shorter !== "") {
        expect(() => parseImportId(definition, definitions, shorter, "DefaultOrganization0")).toThrow(
          `${kind}: import id "${shorter}" is malformed: it has ${filled.length - 1} part`,
        );
      }
    });

    it(`${kind}: a malformed import id fails naming the kind, the id, the format and the fix`, () => {
      const fix = `Fix: \`pulumi import docs:index:${kind} <name> ${complete}\``;
      const tooMany = [...filled, idAt(9)].join("/");
      expect(() => parseImportId(definition, definitions, tooMany, "DefaultOrganization0")).toThrow(
        `${kind}: import id "${tooMany}" is malformed: it has ${filled.length + 1} parts joined by "/", not ` +
          `${expectedCount || filled.length}; expected ${format}. ${fix}.`,
      );
      if (filled.length - (optional ? 2 : 1) >= 1) {
        const tooFew = filled.slice(optional ? 2 : 1).join("/");
        expect(() => parseImportId(definition, definitions, tooFew, "DefaultOrganization0")).toThrow(
          `${kind}: import id "${tooFew}" is malformed: it has ${filled.length - (optional ? 2 : 1)} part`,
        );
      }
      // Whatever would change the request's path: a space, `..`, a query, an empty part.
      for (const bad of ["a b", "..", "x?y"]) {
        const importId = [...filled.slice(0, -1), bad].join("/");
        expect(() => parseImportId(definition, definitions, importId)).toThrow(
          `${kind}: import id "${importId}" is malformed: part "${bad}" is no id (letters, digits, \`-\` and \`_\` ` +
            `only); expected ${format}. ${fix}, each part an id as the API reports it.`,
        );
      }
      const empty = [...filled.slice(0, -1), ""].join("/");
      expect(() => parseImportId(definition, definitions, empty)).toThrow(
        `${kind}: import id "${empty}" is malformed: an empty part; expected ${format}.`,
      );
    });
  }

  it("names a parent kind no registry has", () => {
    const orphan = { kind: "Orphan", parent: { kind: "Nowhere", input: "nowhereId" } };
    expect(() => importIdFormat(orphan, definitions)).toThrow(
      "Orphan: its parent chain reaches Nowhere, which is no kind",
    );
  });
});

describe("importObject: what the provider plugin's Read answers for `pulumi import`", () => {
  const fx = useEmulator();
  const org = () => fx.org();
  /** The requests since the last clear, by route, counted. */
  const counts = () => {
    const found: Record<string, number> = {};
    for (const r of fx.emulator.requests()) {
      const route = `${r.method} ${r.route ?? r.path}`;
      found[route] = (found[route] ?? 0) + 1;
    }
    return found;
  };

  /**
   * Imports in a fresh operation (a plugin process of its own), with the requests it made, then refreshes what it
   * imported in another: the refresh reports the same inputs, and the imported outputs declare every one of them.
   */
  async function imported(kind: string, importId: string, defaultOrganization?: string) {
    startOperation();
    fx.emulator.clearRequests();
    const result = await importObject(currentOperation(), definitionOf(kind), importId, defaultOrganization);
    const requests = counts();
    expect(result.id).toBeTruthy();
    const inputs = result.inputs as Props;
    expect(result.props?.__declared).toEqual(Object.keys(inputs));
    // The engine checks what it imported (and a program declaring these inputs passes the same check).
    expect((await lifecycle(kind).check({}, inputs)).failures ?? []).toEqual([]);
    startOperation();
    const refreshed = await lifecycle(kind).read(result.id!, result.props as Props);
    expect(refreshed.id).toBe(result.id);
    expect(refreshed.inputs).toEqual(inputs);
    return { id: result.id!, inputs, props: result.props as Props, requests };
  }

  const O = "/v1/orgs/{organizationId}";
  const S = `${O}/sites/{siteId}`;

  it("an organization-level kind (Collection): one listing, which the read shares", async () => {
    const collectionId = await fx.makeCollection("Handbook");
    const { id, inputs, requests } = await imported("Collection", `${org()}/${collectionId}`);
    expect(id).toBe(collectionId);
    expect(inputs).toMatchObject({ organizationId: org(), title: "Handbook" });
    expect(requests).toEqual({ [`GET ${O}/collections`]: 1 });
    // The organization left out is the default one.
    expect((await imported("Collection", collectionId, org())).inputs).toEqual(inputs);
  });

  it("a site-level kind (SiteShareLink): the site's listing of share links, which the read shares", async () => {
    const siteId = await fx.makeSite({ visibility: "share-link" });
    const linkId = await fx.apiCreate(`/orgs/${org()}/sites/${siteId}/share-links`, { name: "Partners" });
    const { id, inputs, props, requests } = await imported("SiteShareLink", `${org()}/${siteId}/${linkId}`);
    expect(id).toBe(linkId);
    expect(inputs).toEqual({ organizationId: org(), siteId, name: "Partners", active: true });
    expect(props.url).toMatch(/token=/);
    expect(requests).toEqual({ [`GET ${S}/share-links`]: 1 });
  });

  it("a composite kind (CollectionPermission): the listing tells a team's grant from a user's", async () => {
    const collectionId = await fx.makeCollection("Guides");
    const teamId = await fx.makeTeam("Writers");
    const grant = await created("CollectionPermission", { collectionId, teamId, role: "edit" });
    const { id, inputs, requests } = await imported("CollectionPermission", `${org()}/${grant.id}`);
    expect(id).toBe(`${collectionId}/${teamId}`);
    expect(inputs).toEqual({ collectionId, teamId, role: "edit" });
    expect(requests).toEqual({
      "GET /v1/collections/{collectionId}/permissions/teams": 1,
      "GET /v1/collections/{collectionId}/permissions/users": 1,
      // The listing names each grantee (its titles), by the organization's teams and members.
      [`GET ${O}/teams`]: 1,
      [`GET ${O}/members`]: 1,
    });
  });

  it("a composite kind holding its parent (TeamMember): `<teamId>/<userId>` under the team", async () => {
    const teamId = await fx.makeTeam("Writers", [fx.user(1)]);
    const { id, inputs, requests } = await imported("TeamMember", `${org()}/${teamId}/${fx.user(1)}`);
    expect(id).toBe(`${teamId}/${fx.user(1)}`);
    expect(inputs).toMatchObject({ organizationId: org(), teamId, userId: fx.user(1) });
    expect(requests).toEqual({ [`GET ${O}/teams/{teamId}/members`]: 1 });
  });

  it("one per site (SiteStructure, SiteCustomization): read directly, with the site's id", async () => {
    const siteId = await fx.makeSite();
    const structure = await imported("SiteStructure", `${org()}/${siteId}`);
    expect(structure.id).toBe(siteId);
    expect(structure.inputs).toMatchObject({ organizationId: org(), siteId });
    expect(structure.requests).toEqual({ [`GET ${S}/structure`]: 1 });
    const customization = await imported("SiteCustomization", siteId, org());
    expect(customization.id).toBe(siteId);
    // No section is managed until the program declares it: the import adopts the site's customization as it is.
    expect(customization.inputs).toEqual({ organizationId: org(), siteId });
    expect(customization.requests).toEqual({ [`GET ${S}/customization`]: 1 });
  });

  it("one per site, whatever the import walk would declare: a site's sign-in, redirects it has none of", async () => {
    // The listings name only what `docs-platform import` declares (a sign-in where readers sign in, a site's
    // redirects where it has some), and need the listed site: the id names the object, so the read alone decides.
    const siteId = await fx.makeSite({ visibility: "visitor-auth" });
    const auth = await imported("SiteVisitorAuth", `${org()}/${siteId}`);
    expect(auth.id).toBe(siteId);
    expect(auth.requests).toEqual({ [`GET ${S}/publishing/auth`]: 1 });
    const redirects = await imported("SiteRedirects", `${org()}/${siteId}`);
    expect(redirects.inputs).toEqual({ organizationId: org(), siteId, redirects: {} });
    expect(redirects.requests).toEqual({ [`GET ${S}/redirects`]: 1 });
  });

  it("one per site space (SiteSpaceCustomization): its id is the site space's, under its site", async () => {
    const siteId = await fx.makeSite();
    const siteSpaceId = await fx.apiCreate(`/orgs/${org()}/sites/${siteId}/site-spaces`, { spaceId: fx.space(0) });
    const { id, inputs, requests } = await imported("SiteSpaceCustomization", `${org()}/${siteId}/${siteSpaceId}`);
    expect(id).toBe(siteSpaceId);
    expect(inputs).toEqual({ organizationId: org(), siteId, siteSpaceId });
    expect(requests).toEqual({ [`GET ${S}/site-spaces/{siteSpaceId}/customization`]: 1 });
  });

  it("the organization's settings (OrganizationSettings): the id is the organization's", async () => {
    const { id, inputs, requests } = await imported("OrganizationSettings", org());
    expect(id).toBe(org());
    expect(inputs).toMatchObject({ organizationId: org() });
    expect(requests).toEqual({ [`GET ${O}`]: 1 });
  });

  it("fails for an object that does not exist, naming the import id and where the existing ones are listed", async () => {
    const siteId = await fx.makeSite({ visibility: "share-link" });
    const missing = async (kind: string, importId: string) => {
      startOperation();
      return importObject(currentOperation(), definitionOf(kind), importId, undefined);
    };
    await expect(missing("SiteShareLink", `${org()}/${siteId}/NoSuchLink0000000000`)).rejects.toThrow(
      `SiteShareLink: import id "${org()}/${siteId}/NoSuchLink0000000000": no such object; ` +
        `GET /orgs/${org()}/sites/${siteId}/share-links lists those that exist`,
    );
    // A site that is not there holds no share link either.
    await expect(missing("SiteShareLink", `${org()}/NoSuchSite0000000000/NoSuchLink0000000000`)).rejects.toThrow(
      `SiteShareLink: import id "${org()}/NoSuchSite0000000000/NoSuchLink0000000000": no such object; ` +
        `GET /orgs/${org()}/sites/NoSuchSite0000000000/share-links lists those that exist`,
    );
    await expect(missing("SiteStructure", `${org()}/NoSuchSite0000000000`)).rejects.toThrow(
      `SiteStructure: import id "${org()}/NoSuchSite0000000000": no such object; a SiteStructure has the id of its ` +
        `Site, and GET /orgs/${org()}/sites lists the Site ids`,
    );
    await expect(missing("CollectionPermission", `${org()}/NoSuchCollection0000/${fx.user(0)}`)).rejects.toThrow(
      `CollectionPermission: import id "${org()}/NoSuchCollection0000/${fx.user(0)}": no such object; ` +
        "GET /collections/NoSuchCollection0000/permissions lists those that exist",
    );
    await expect(missing("OrganizationSettings", "NoSuchOrganization00")).rejects.toThrow(
      'OrganizationSettings: import id "NoSuchOrganization00": no such object; check the organization id, and that ' +
        'the token\'s user is a member of organization "NoSuchOrganization00"',
    );
    // Malformed ids fail before any request.
    fx.emulator.clearRequests();
    await expect(missing("SiteShareLink", "just-one-part")).rejects.toThrow(
      'SiteShareLink: import id "just-one-part" is malformed: it has 1 part joined by "/", not 3 (or 2, the ' +
        "organization left out); expected [<organizationId>/]<siteId>/<id>.",
    );
    expect(fx.emulator.requests()).toEqual([]);
  });
});
