/**
 * The emulator's `security: "user"` route flags against the official document's `security` of each operation.
 *
 * The document's security schemes are `user`, `user-internal`, `user-staff` (tokens of users: GitBook's own staff's
 * in the latter two), `integration`, `integration-installation` (an integration's tokens) and `oauth` (an OAuth
 * application's). An operation without its own `security` inherits the document's global one. The rule: a route is
 * flagged user-only iff its operation's security lists no scheme of another token type than a user's, i.e. none of
 * `integration`, `integration-installation` and `oauth` (so `[user]` and, were the emulator to serve one,
 * `[user, user-internal]`). Routes the document does not have (operations added from the API reference, see
 * deviations.ts) have no security to follow and are never flagged.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../emulator";
import { deviations } from "./deviations";
import { OPENAPI_DOCUMENT_PATH } from "./validator";

type SecurityRequirement = Record<string, unknown>;
interface Operation {
  operationId: string;
  security?: SecurityRequirement[];
}
interface Document {
  security: SecurityRequirement[];
  paths: Record<string, Record<string, Operation>>;
}

const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8")) as Document;
const USER_SCHEMES: ReadonlySet<string> = new Set(["user", "user-internal", "user-staff"]);

/** `GET /orgs/{}/saml`: parameter names differ between the emulator's templates and the document's. */
const key = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`;

const operations = new Map<string, Operation>();
for (const [path, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (typeof operation === "object" && operation !== null && "operationId" in operation) {
      operations.set(key(method, path), operation);
    }
  }
}
const fromTheReference = new Set(deviations.flatMap((d) => (d.kind === "operation" ? [key(d.method, d.path)] : [])));

/** The schemes an operation admits: any one of its requirements (each here names one scheme). */
function schemesOf(operation: Operation): string[] {
  return (operation.security ?? document.security).flatMap((requirement) => Object.keys(requirement));
}

function userOnly(operation: Operation): boolean {
  const schemes = schemesOf(operation);
  return schemes.length > 0 && schemes.every((scheme) => USER_SCHEMES.has(scheme));
}

const routeKey = (route: { method: string; path: string }) => key(route.method, route.path.replace(/^\/v1/, ""));

describe("token types of the emulator's routes", () => {
  it("flags a route user-only exactly when the document's security admits user tokens only", () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const route of allRoutes) {
      const operation = operations.get(routeKey(route));
      if (operation === undefined) continue;
      compared++;
      const expected = userOnly(operation);
      if ((route.security === "user") !== expected) {
        disagreements.push(
          `${route.method} ${route.path} (${operation.operationId}, security ${JSON.stringify(schemesOf(operation))}): ` +
            (expected ? 'flag it security: "user"' : "remove its security flag"),
        );
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBe(allRoutes.length - fromTheReference.size);
  });

  it("never flags a route the document does not have, and every other route has its operation", () => {
    const outside = allRoutes.filter((route) => !operations.has(routeKey(route)));
    expect(outside.map(routeKey).sort()).toEqual([...fromTheReference].sort());
    expect(outside.filter((route) => route.security !== undefined)).toEqual([]);
  });

  it("reads the document as the rule assumes: user-only operations exist, and every SAML provider one is one", () => {
    const samlProviderOperations = [...operations.entries()].filter(([k]) =>
      /^\w+ \/orgs\/\{\}\/saml(\/\{\})?$/.test(k),
    );
    expect(samlProviderOperations.map(([, operation]) => operation.operationId).sort()).toEqual([
      "createOrganizationSAMLProvider",
      "deleteOrganizationSAMLProvider",
      "getOrganizationSAMLProviderById",
      "listSAMLProvidersInOrganizationById",
      "updateOrganizationSAMLProvider",
    ]);
    expect(samlProviderOperations.every(([, operation]) => userOnly(operation))).toBe(true);
    // The global security (what an operation without its own inherits) admits integrations: not user-only.
    expect(userOnly({ operationId: "inherits" })).toBe(false);
  });
});
