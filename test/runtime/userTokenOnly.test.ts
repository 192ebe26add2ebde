import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created } from "../support/lifecycle";

/**
 * A kind whose operations the official document admits a user's personal API token only to (SamlProvider), run with
 * an integration's token: its own operation fails with the fix, and the token still serves every other resource of
 * the same operation (one client per token, see provider/framework/settings.ts).
 */
const fixture = useEmulator();
const INTEGRATION_TOKEN = "integration-token";

beforeAll(() => fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration"));
let savedToken: string | undefined;
beforeEach(() => {
  savedToken = process.env.DOCS_API_TOKEN;
});
afterEach(() => {
  process.env.DOCS_API_TOKEN = savedToken;
  delete process.env.INTEGRATION_TOKEN;
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );

describe("an integration's token", () => {
  it("fails a SamlProvider read naming the resource, the 401, the user token and the fix; a Team read still works", async () => {
    const saml = await created("SamlProvider", { organizationId: fixture.org(), label: "Okta" });
    const team = await created("Team", { organizationId: fixture.org(), title: "Everyone" });
    process.env.DOCS_API_TOKEN = INTEGRATION_TOKEN;
    fixture.emulator.clearRequests();

    const error = await failure(lifecycle("SamlProvider").read(saml.id, saml.state));
    expect(error.name).toBe("UserTokenRequiredError");
    expect(error.message).toBe(
      `SamlProvider "${saml.id}" read: GET /v1/orgs/${fixture.org()}/saml failed with 401 Unauthorized: This ` +
        "operation requires a user token; this operation accepts only a user's personal API token (the official " +
        'document\'s security for it is "user"), so the token is either of another type (an integration or OAuth ' +
        "token) or not valid. Use a personal API token of an organization admin: `pulumi config set --secret " +
        "docs:apiToken <token>` or the DOCS_API_TOKEN environment variable, or give these resources a " +
        "docs.Connection with one.",
    );

    const read = await lifecycle("Team").read(team.id, team.state);
    expect(read.props).toMatchObject({ title: "Everyone" });
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}/saml`, `GET /v1/orgs/${fixture.org()}/teams`]);
  });

  it("on a resource's connection, the fix names that connection's token", async () => {
    const saml = await created("SamlProvider", { organizationId: fixture.org(), label: "Okta" });
    process.env.INTEGRATION_TOKEN = INTEGRATION_TOKEN;
    const connection = { organizationId: fixture.org(), tokenEnv: "INTEGRATION_TOKEN" };
    const error = await failure(lifecycle("SamlProvider").read(saml.id, { ...saml.state, connection }));
    expect(error.message).toMatch(/failed with 401 Unauthorized: This operation requires a user token; /);
    expect(error.message).toContain(
      `The token is from this resource's connection (organization ${fixture.org()}): the INTEGRATION_TOKEN ` +
        "environment variable. It must be a personal API token of an organization admin.",
    );
  });
});
