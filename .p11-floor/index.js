// The engine's floor: the package's classes, type tokens and property names with a dynamic provider that answers at
// once and talks to nothing. Installed into the floor project's node_modules as `docs-floor`, so Pulumi serializes
// each kind's provider as `require("docs-floor/kinds/<Kind>")`, as it does `pulumi-docs-platform/kinds/<Kind>`.
const pulumi = require("@pulumi/pulumi");

const KINDS = [
  "Collection",
  "Site",
  "SiteSection",
  "SiteSectionGroup",
  "SiteShareLink",
  "Team",
  "TeamMember",
  "SamlProvider",
  "OpenApiSpec",
];

for (const kind of KINDS) {
  exports[kind] = class extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
      super(require(`./kinds/${kind}`), name, { ...args }, opts, "docs", kind);
    }
  };
}
exports.KINDS = KINDS;
