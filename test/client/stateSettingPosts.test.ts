import { describe, expect, it } from "vitest";
import {
  createSite,
  HttpClient,
  moveCollection,
  moveSpace,
  outcomeUnknown,
  publishSite,
  setMemberSso,
  unpublishSite,
} from "../../provider/client";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator({ provider: false });
const client = () => new HttpClient({ baseUrl: fixture.emulator.url, token: fixture.emulator.token });

/**
 * The POSTs that set a state rather than make an object: repeating one leaves the API as one would, so an answer
 * lost after the API acted is sent again, where a create's POST is not (the lookup of test/runtime/recovery.test.ts
 * decides that one).
 */
const STATE_SETTING: { name: string; path: RegExp; send: (c: HttpClient) => Promise<unknown> }[] = [
  {
    name: "publish a site",
    path: /\/publish$/,
    send: async (c) => publishSite(c, fixture.org(), await fixture.makeSite()),
  },
  {
    name: "unpublish a site",
    path: /\/unpublish$/,
    send: async (c) => unpublishSite(c, fixture.org(), await fixture.makeSite()),
  },
  {
    name: "move a space",
    path: /\/move$/,
    send: async (c) => {
      const parent = await fixture.makeCollection("Guides");
      return moveSpace(c, await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "API" }), parent);
    },
  },
  {
    name: "move a collection",
    path: /\/move$/,
    send: async (c) => {
      const parent = await fixture.makeCollection("Guides");
      return moveCollection(c, await fixture.makeCollection("API"), parent);
    },
  },
  {
    name: "let a member log in with SSO",
    path: /\/sso$/,
    send: (c) => setMemberSso(c, fixture.org(), fixture.user(0)),
  },
];

describe("a state-setting POST whose answer is lost after the API acted", () => {
  for (const call of STATE_SETTING) {
    it(`${call.name}: sent again, and the second answer is the result`, async () => {
      fixture.emulator.injectFault({ method: "POST", path: call.path.source, afterHandling: "drop" });
      const answer = await call.send(client());
      const sent = fixture.emulator.requests().filter((r) => r.method === "POST" && call.path.test(r.path));
      const answered = (status: unknown) => (typeof status === "number" && status < 300 ? "2xx" : status);
      expect(sent.map((r) => answered(r.status))).toEqual(["dropped", "2xx"]);
      expect(answer).toBeDefined();
    });
  }

  it("a create's POST is not sent again: its outcome is reported unknown", async () => {
    fixture.emulator.injectFault({ method: "POST", path: "/sites$", afterHandling: "drop" });
    const error = await createSite(client(), fixture.org(), { title: "Docs" }).catch((e: unknown) => e);
    expect(outcomeUnknown(error)).toBe(true);
    const sent = fixture.emulator.requests().filter((r) => r.method === "POST" && r.path.endsWith("/sites"));
    expect(sent.map((r) => r.status)).toEqual(["dropped"]);
  });
});
