/**
 * KeyedProperties built inside each test (test/framework/keyed.test.ts shares one built when the file loads): which
 * properties a kind's declaration keys, and inputs that leave a keyed property out.
 */
import { describe, expect, it } from "vitest";
import { KeyedProperties } from "../../provider/framework/keyed";

describe("KeyedProperties, as a kind declares them", () => {
  it("keys the properties given a key field, and only those", () => {
    const keyed = new KeyedProperties({ redirects: "source", rules: undefined, members: "userId" });
    expect(keyed.properties).toEqual(["redirects", "members"]);
    expect(keyed.keyed({ rules: [{ source: "/a" }], members: [{ userId: "u1", role: "admin" }] })).toEqual({
      rules: [{ source: "/a" }],
      members: { u1: { role: "admin" } },
    });
  });

  it("leaves inputs that do not declare a keyed property as they are", () => {
    const keyed = new KeyedProperties({ redirects: "source" });
    expect(keyed.keyed({ siteId: "s" })).toEqual({ siteId: "s" });
    expect(keyed.plain({ siteId: "s" })).toEqual({ siteId: "s" });
  });
});
