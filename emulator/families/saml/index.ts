/**
 * The saml family: SAML providers. Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import type { SamlRec } from "./records";
import { samlRoutes } from "./saml";

export const samlFamily = defineFamily("saml", {
  tables: {
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
  },
  routes: [...samlRoutes],
});
