import { it } from "vitest";
import { lifecycle } from "../../provider/runtime";
const o = "org";
const cases: [string, Record<string, unknown>][] = [
  ["Collection", { organizationId: o, title: "x", defaultLevel: "owner" }],
  ["Collection", { organizationId: o, title: "x".repeat(51) }],
  ["SamlProvider", { organizationId: o, label: "" }],
  ["SamlProvider", { organizationId: o, label: "a", ssoUrl: "not a url" }],
  ["SamlProvider", { organizationId: o, label: "a", ssoUrl: `https://idp.example/${"a".repeat(2029)}` }],
  ["SamlProvider", { organizationId: o, label: "a", defaultRole: "owner" }],
  ["Team", { organizationId: o, title: "t", members: [{ user: "u", role: "admin" }] }],
  ["TeamMember", { organizationId: o, teamId: "t", userId: "u", role: "admin" }],
  ["OpenApiSpec", { organizationId: o, slug: "", sourceUrl: "https://x.example/a" }],
  ["OpenApiSpec", { organizationId: o, slug: "My--x", sourceUrl: "https://x.example/a" }],
  ["OpenApiSpec", { organizationId: o, slug: "a", sourceText: "" }],
  ["Site", { organizationId: o, title: "ab", type: "x", visibility: "private", agentsContext: "x", proxy: "example.com" }],
  ["SiteAdaptiveSchema", { organizationId: o, siteId: "s", jsonSchema: { type: "array", properties: { a: { type: "date", description: "d" } }, additionalProperties: true } }],
];
it("probe", async () => {
  for (const [k, n] of cases) console.log(k, JSON.stringify(await lifecycle(k).check({}, n)));
});
