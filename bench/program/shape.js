// The benchmark's program shape, shared verbatim by the programs of the package's two routes (dynamic resources and
// the provider plugin) and of the no-op floor: the same logical names, kinds and dependency graph, so they differ only
// in the provider behind each kind. Plain CommonJS so every project runs it as is, without a compile step whose cost
// would land in the measurement.
//
// Resources come in units of 14, declared the way users write them; a unit is cut short at N. Every even position of
// a unit has a display name (title, name or label), so "every 10th resource" (index 0, 10, 20, … — always even, as 10
// and 14 are) is always one whose display name can change without replacing it.

/** One unit: [logical-name suffix, kind, index of each dependency within the unit]. */
const UNIT = [
  ["handbook", "Collection", []],
  ["engineering", "Collection", [0]],
  ["onboarding", "Collection", [1]],
  ["docs", "Site", []],
  ["guides", "SiteSection", [3]],
  ["api-reference", "SiteSection", [3]],
  ["product", "SiteSectionGroup", [3, 4, 5]],
  ["review-link", "SiteShareLink", [3]],
  ["writers", "Team", []],
  ["reviewers", "Team", []],
  ["okta", "SamlProvider", [8]],
  ["reviewer", "TeamMember", [9]],
  ["partner-link", "SiteShareLink", [3]],
  ["petstore", "OpenApiSpec", []],
];

/** The graph without Pulumi: what the bench needs for its critical-path bound. */
function plan(n) {
  const resources = [];
  for (let i = 0; i < n; i++) {
    const unit = Math.floor(i / UNIT.length);
    const [suffix, kind, deps] = UNIT[i % UNIT.length];
    resources.push({ name: `u${unit}-${suffix}`, kind, deps: deps.map((d) => unit * UNIT.length + d) });
  }
  return resources;
}

/**
 * Declares the N resources with `kinds` (the package's exports, or the floor's). `rename` appends " v2" to the display
 * name of every 10th resource: an in-place update of N/10 resources.
 */
function declare(kinds, { n, rename, organizationId, spaceIds, userIds }) {
  const declared = [];
  const label = (i, text) => (rename && i % 10 === 0 ? `${text} v2` : text);
  for (let i = 0; i < n; i++) {
    const unit = Math.floor(i / UNIT.length);
    const base = unit * UNIT.length;
    const at = (position) => declared[base + position];
    const [suffix, kind] = UNIT[i % UNIT.length];
    const name = `u${unit}-${suffix}`;
    const K = kinds[kind];
    let resource;
    switch (i % UNIT.length) {
      case 0:
        resource = new K(name, { organizationId, title: label(i, `Handbook ${unit}`), defaultLevel: "read" });
        break;
      case 1:
      case 2:
        resource = new K(name, { organizationId, title: label(i, `${suffix} ${unit}`), parentId: declared[i - 1].id });
        break;
      case 3:
        resource = new K(name, { organizationId, title: label(i, `Docs ${unit}`), visibility: "public" });
        break;
      case 4:
      case 5:
        resource = new K(name, {
          organizationId,
          siteId: at(3).id,
          spaceId: spaceIds[(i % UNIT.length) - 4],
          title: label(i, `${suffix} ${unit}`),
        });
        break;
      case 6:
        resource = new K(name, {
          organizationId,
          siteId: at(3).id,
          title: label(i, `Product ${unit}`),
          sectionIds: [at(4).id, at(5).id],
        });
        break;
      case 7:
      case 12:
        resource = new K(name, { organizationId, siteId: at(3).id, name: label(i, `${suffix} ${unit}`) });
        break;
      case 8:
        resource = new K(name, {
          organizationId,
          title: label(i, `Writers ${unit}`),
          members: [{ user: userIds[0], role: "owner" }, { user: userIds[1] }],
        });
        break;
      case 9:
        resource = new K(name, { organizationId, title: label(i, `Reviewers ${unit}`) });
        break;
      case 10:
        resource = new K(name, {
          organizationId,
          label: label(i, `SSO ${unit}`),
          entityId: `http://www.okta.example/exk${unit}`,
          ssoUrl: `https://acme.okta.example/app/docs/exk${unit}/sso/saml`,
          certificate: "MIIDpDCCAoygAwIBAgIGAXoM2Q8HMA0GCSqGSIb3DQEBCwUAMIGSMQswCQYDVQQGEwJVUzETMBEGA1UECAwK",
          defaultTeamId: at(8).id,
          defaultRole: "read",
        });
        break;
      case 11:
        resource = new K(name, { organizationId, teamId: at(9).id, userId: userIds[2], role: "member" });
        break;
      case 13:
        resource = new K(name, {
          organizationId,
          slug: `petstore-${unit}`,
          sourceText: JSON.stringify({
            openapi: "3.1.0",
            info: { title: `Petstore ${unit}`, version: "1.0.0" },
            paths: { "/pets": { get: { summary: "List pets", responses: { 200: { description: "The pets" } } } } },
          }),
        });
        break;
    }
    declared.push(resource);
  }
  return declared;
}

module.exports = { UNIT, plan, declare };
