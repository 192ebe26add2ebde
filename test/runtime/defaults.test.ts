import { afterEach, describe, expect, it } from "vitest";
import type * as docs from "../../provider";
import { configure, kinds, lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created } from "../support/lifecycle";

const fixture = useEmulator();
const secondOrg = () => fixture.emulator.secondOrganizationId;

/** What the dynamic-provider host passes to `configure`: the stack's config, keys namespaced as `docs:…`. */
function configureStack(config: Record<string, string>) {
  configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key]! } });
}

/**
 * `organizationId` may be left out of every resource when the stack has a default (`docs:organizationId`, or
 * `DOCS_ORGANIZATION_ID`). check fills it in, so the state records the organization like any other input.
 */
describe("the organizationId default", () => {
  afterEach(() => {
    delete process.env.DOCS_ORGANIZATION_ID;
    configureStack({});
  });

  it("comes from DOCS_ORGANIZATION_ID and is recorded as an input and in the state", async () => {
    process.env.DOCS_ORGANIZATION_ID = fixture.org();
    const { inputs, state } = await created("Collection", { title: "Handbook" });
    expect(inputs.organizationId).toBe(fixture.org());
    expect(state.organizationId).toBe(fixture.org());
    expect(state.__declared).toContain("organizationId");
    expect(fixture.calls()).toContain(`POST /v1/orgs/${fixture.org()}/collections`);
  });

  it("comes from stack config docs:organizationId, which wins over the environment", async () => {
    process.env.DOCS_ORGANIZATION_ID = secondOrg();
    configureStack({ "docs:organizationId": fixture.org() });
    expect((await checked("Team", { title: "Writers" })).organizationId).toBe(fixture.org());
  });

  it("never overrides an organizationId the program gives", async () => {
    configureStack({ "docs:organizationId": fixture.org() });
    expect((await checked("Site", { organizationId: secondOrg(), title: "Docs" })).organizationId).toBe(secondOrg());
  });

  it("fills every kind's organizationId (each kind's input schema has one)", async () => {
    process.env.DOCS_ORGANIZATION_ID = fixture.org();
    for (const kind of kinds) {
      const result = await lifecycle(kind).check({}, {});
      // Other required inputs are missing; organizationId must not be among the failures.
      expect(result.failures?.map((failure) => failure.property) ?? [], kind).not.toContain("organizationId");
    }
  });

  it("when missing, fails check naming the resource, the property and both settings, before any request", async () => {
    const result = await lifecycle("SamlProvider").check({}, { label: "Okta" });
    expect(result.failures).toEqual([
      {
        property: "organizationId",
        reason:
          "SamlProvider.organizationId: not set and no default: pass organizationId to the resource, or set a default " +
          "for the stack with `pulumi config set docs:organizationId <id>` or the DOCS_ORGANIZATION_ID environment variable.",
      },
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("a changed default is a visible diff: a replace where the kind cannot move, a transfer where it can", async () => {
    process.env.DOCS_ORGANIZATION_ID = fixture.org();
    const site = await created("Site", { title: "Docs" });
    const collection = await created("Collection", { title: "Handbook" });
    process.env.DOCS_ORGANIZATION_ID = secondOrg();
    const siteDiff = await lifecycle("Site").diff(site.id, site.state, await checked("Site", { title: "Docs" }));
    expect(siteDiff).toMatchObject({ changes: true, replaces: ["organizationId"] });
    const collectionNews = await checked("Collection", { title: "Handbook" });
    expect(await lifecycle("Collection").diff(collection.id, collection.state, collectionNews)).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(lifecycle("Collection").changedProperties(collection.state, collectionNews)).toEqual(["organizationId"]);
  });

  it("makes organizationId, and only it, optional in the argument types", () => {
    const collection: docs.CollectionArgs = { title: "Handbook" };
    const member: docs.TeamMemberArgs = { teamId: "team", userId: "user" };
    // @ts-expect-error title stays required
    const untitled: docs.CollectionArgs = { description: "no title" };
    expect([collection, member, untitled]).toHaveLength(3);
  });
});
