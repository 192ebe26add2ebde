import { describe, expect, it } from "vitest";
import { pendingCreates } from "../../cli/recover";
import { managedByState, organizationsInState } from "../../cli/unmanaged";
import { dynamicType, kindOfType, pluginType } from "../../provider/framework/typeTokens";

describe("the type tokens of the two routes", () => {
  it("name a kind on each route, and give the kind back from either", () => {
    expect(pluginType("SiteShareLink")).toBe("docs:index:SiteShareLink");
    expect(dynamicType("SiteShareLink")).toBe("pulumi-nodejs:dynamic/docs:SiteShareLink");
    expect(kindOfType("docs:index:SiteShareLink")).toBe("SiteShareLink");
    expect(kindOfType("pulumi-nodejs:dynamic/docs:Team")).toBe("Team");
    for (const other of ["pulumi:providers:docs", "docs:index:", "pulumi-nodejs:dynamic/other:Team", "aws:s3:Bucket"]) {
      expect(kindOfType(other), other).toBeUndefined();
    }
  });

  it("let the CLI read a stack of either route", () => {
    const resource = (type: string, id: string, organizationId: string) => ({
      urn: `urn:pulumi:dev::p::${type}::${id}`,
      type,
      id,
      inputs: { organizationId, title: id },
      outputs: { organizationId, title: id },
    });
    const exported = {
      deployment: {
        resources: [
          resource(pluginType("Team"), "t1", "org-a"),
          resource(dynamicType("Team"), "t2", "org-b"),
          resource("pulumi:providers:docs", "p", "org-c"),
        ],
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::p::docs:index:Collection::c",
              type: pluginType("Collection"),
              inputs: {},
            },
          },
        ],
      },
    };
    expect([...(managedByState(exported).ids.get("Team") ?? [])].sort()).toEqual(["t1", "t2"]);
    expect(organizationsInState(exported)).toEqual(["org-a", "org-b"]);
    expect(pendingCreates(exported).map((create) => create.kind)).toEqual(["Collection"]);
  });
});
