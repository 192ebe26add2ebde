import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  createSamlProvider,
  DocsApiError,
  deleteSamlProvider,
  errorForStatus,
  ForbiddenError,
  getSamlProvider,
  HttpClient,
  listSamlProviders,
  rejectsToken,
  setMemberSso,
  TokenRejectedError,
  UnauthorizedError,
  UserTokenRequiredError,
  updateSamlProvider,
} from "../../provider/client";
import { useEmulator } from "../support/emulator";
import { failureOf } from "./stub";

/**
 * Operations the official document admits a user's personal API token only to (`security: user`), called with
 * `userTokenOnly`: their 401 says so and leaves the client's token usable, since an integration or OAuth token valid
 * for every other operation gets it too. Any other 401 still rejects the token for the rest of the process.
 */
const fixture = useEmulator({ provider: false });
const INTEGRATION_TOKEN = "integration-token-of-the-organization";

const client = (token: string) => new HttpClient({ baseUrl: fixture.emulator.url, token, sleep: async () => {} });
const orgPath = () => `/orgs/${fixture.org()}`;
const samlPath = () => `/v1${orgPath()}/saml`;

describe("a 401 from an operation for user tokens only", () => {
  it("says the operation accepts only a user's personal token, and the next request is sent and succeeds", async () => {
    fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration");
    const http = client(INTEGRATION_TOKEN);
    const error = await failureOf(listSamlProviders(http, fixture.org()));
    expect(error).toBeInstanceOf(UserTokenRequiredError);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(String(error)).toBe(
      `UserTokenRequiredError: GET ${samlPath()} failed with 401 Unauthorized: This operation requires a user ` +
        "token; this operation accepts only a user's personal API token (the official document's security for it " +
        'is "user"), so the token is either of another type (an integration or OAuth token) or not valid',
    );
    await expect(http.get(orgPath())).resolves.toMatchObject({ id: fixture.org() });
    expect(fixture.calls()).toEqual([`GET ${samlPath()}`, `GET /v1${orgPath()}`]);
  });

  it("comes so from every SAML provider call and a member's SSO flag, none of which rejects the token", async () => {
    fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration");
    const { id } = (await fixture.api("POST", `${orgPath()}/saml`, { label: "Okta" })).body as { id: string };
    const http = client(INTEGRATION_TOKEN);
    const org = fixture.org();
    const calls: [string, () => Promise<unknown>][] = [
      ["list", () => listSamlProviders(http, org)],
      ["create", () => createSamlProvider(http, org, { label: "Other" })],
      ["get", () => getSamlProvider(http, org, id)],
      ["update", () => updateSamlProvider(http, org, id, { label: "Renamed" })],
      ["delete", () => deleteSamlProvider(http, org, id)],
      ["member SSO", () => setMemberSso(http, org, fixture.user(1))],
    ];
    for (const [name, call] of calls) {
      expect(await failureOf(call()), name).toBeInstanceOf(UserTokenRequiredError);
    }
    await expect(http.get(orgPath())).resolves.toBeDefined();
    expect(fixture.emulator.requests().map((r) => r.status)).toEqual([201, 401, 401, 401, 401, 401, 401, 200]);
  });

  it("with an invalid token, leaves the next ordinary 401 to reject it", async () => {
    const http = client("not-a-token-at-all");
    expect(await failureOf(listSamlProviders(http, fixture.org()))).toBeInstanceOf(UserTokenRequiredError);
    const ordinary = await failureOf(http.get(orgPath()));
    expect(ordinary).toBeInstanceOf(UnauthorizedError);
    expect(ordinary).not.toBeInstanceOf(UserTokenRequiredError);
    const later = await failureOf(listSamlProviders(http, fixture.org()));
    expect(later).toBeInstanceOf(TokenRejectedError);
    expect(String(later)).toContain(`the API rejected this token earlier (GET /v1${orgPath()}: 401 Unauthorized)`);
    expect(fixture.calls()).toEqual([`GET ${samlPath()}`, `GET /v1${orgPath()}`]);
  });
});

describe("an ordinary 401", () => {
  it("still rejects the token for every later request, user-only ones included", async () => {
    const http = client("rejected-token");
    const first = await failureOf(http.get(orgPath()));
    expect(first).toBeInstanceOf(UnauthorizedError);
    expect(first).not.toBeInstanceOf(UserTokenRequiredError);
    expect(await failureOf(http.get(`${orgPath()}/teams`))).toBeInstanceOf(TokenRejectedError);
    expect(await failureOf(listSamlProviders(http, fixture.org()))).toBeInstanceOf(TokenRejectedError);
    expect(fixture.calls()).toEqual([`GET /v1${orgPath()}`]);
  });
});

describe("classification", () => {
  const details = { method: "GET", path: "/v1/x", attempts: 1 };

  it("makes a 401 a UserTokenRequiredError only for an operation for user tokens only; other statuses as ever", () => {
    expect(errorForStatus({ ...details, status: 401 }, { userTokenOnly: true })).toBeInstanceOf(UserTokenRequiredError);
    const ordinary = errorForStatus({ ...details, status: 401 });
    expect(ordinary).toBeInstanceOf(UnauthorizedError);
    expect(ordinary).not.toBeInstanceOf(UserTokenRequiredError);
    expect(errorForStatus({ ...details, status: 401 }, { userTokenOnly: false })).not.toBeInstanceOf(
      UserTokenRequiredError,
    );
    expect(errorForStatus({ ...details, status: 403 }, { userTokenOnly: true })).toBeInstanceOf(ForbiddenError);
    expect(errorForStatus({ ...details, status: 400 }, { userTokenOnly: true })).toBeInstanceOf(BadRequestError);
  });

  it("rejects the token on any 401 but a user-only operation's, and on nothing else", () => {
    expect(rejectsToken(new UnauthorizedError({ ...details, status: 401 }))).toBe(true);
    expect(rejectsToken(new UserTokenRequiredError({ ...details, status: 401 }))).toBe(false);
    expect(rejectsToken(new ForbiddenError({ ...details, status: 403 }))).toBe(false);
    expect(rejectsToken(new DocsApiError({ ...details, status: 418 }))).toBe(false);
  });
});
