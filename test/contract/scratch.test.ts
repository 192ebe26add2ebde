import { it } from "vitest";
import { ContractValidator } from "./validator";
it("scratch", () => {
  const v = new ContractValidator() as any;
  const defs = v.defs;
  const names = ["Site","SiteSection","SiteSectionGroup","SiteSpace","Space","Collection","ShareLink","SiteAdaptiveSchema","OrganizationSAMLProvider","OrganizationTeam","OrganizationTeamMember","OrganizationMember","User","OpenAPISpec","OpenAPISpecVersion","OpenAPISpecContent","Organization","SiteStructure","SiteExternalLink","SiteAdaptiveJSONSchema","CustomizationFavicon","SiteFeature","SiteAds"];
  const open: string[] = [];
  function walk(node: any, path: string, boundary: boolean) {
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    if (boundary) {
      const shape = v.propertyShape(node, new Set());
      const closed = node.unevaluatedProperties === false || node.additionalProperties === false;
      if (!closed && (shape.listed || shape.open)) open.push(`${path} listed=${shape.listed} open=${shape.open}`);
    }
    for (const [k, s] of Object.entries<any>(node.properties ?? {})) walk(s, `${path}/${k}`, true);
    if (node.items) walk(node.items, `${path}[]`, true);
    if (node.additionalProperties && typeof node.additionalProperties === "object") walk(node.additionalProperties, `${path}{*}`, true);
    for (const k of ["allOf","oneOf","anyOf"]) (node[k] ?? []).forEach((s: any, i: number) => walk(s, `${path}/${k}${i}`, false));
  }
  for (const n of names) walk(defs[n], n, false);
  console.log(open.join("\n"));
  // responses roots
  for (const [n, d] of Object.entries<any>(defs)) if (n.startsWith("op:") && /(Site|Collection|SAML|Team|OpenAPI|Organization)/i.test(n)) { const shape = v.propertyShape(d, new Set()); if (!(d.unevaluatedProperties === false || d.additionalProperties === false) && (shape.listed)) console.log("ROOT OPEN", n); }
});
