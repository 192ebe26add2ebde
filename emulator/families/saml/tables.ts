/** The saml family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { SamlRec } from "./records";

export const samlTables = defineTables("saml", {
  samlProviders: table<SamlRec>([
    parent("orgs", (p) => p.orgId),
    parent(
      "teams",
      (p) => p.defaultTeamId,
      (p) => {
        p.defaultTeamId = undefined;
      },
    ),
  ]),
});
