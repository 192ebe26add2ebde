import { describe, expect, it } from "vitest";
import { HttpClient, outcomeUnknown } from "../../provider/client";
import { Listings } from "../../provider/framework/listings";
import { CLOCK_SKEW_MS, createWithoutDuplicates } from "../../provider/framework/recovery";
import { siteKind } from "../../provider/resources/site";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked } from "../support/lifecycle";
import { RECOVERY_CASES } from "./recoveryCases";

const fixture = useEmulator();

/** The creating requests the provider sent for a case. */
const creates = (method: string, path: string) =>
  fixture.emulator.requests().filter((r) => r.method === method && new RegExp(path).test(r.path));

describe("a create whose response is lost never duplicates", () => {
  for (const c of RECOVERY_CASES) {
    describe(c.kind, () => {
      it("the API made it, the connection dropped: the one object is adopted, not made again", async () => {
        const inputs = await checked(c.kind, await c.inputs(fixture));
        fixture.emulator.clearRequests();
        fixture.emulator.injectFault({ ...c.create, afterHandling: "drop" });
        const result = await lifecycle(c.kind).create(inputs);
        const objects = await c.objects(fixture, inputs);
        expect(objects.map((o) => o.id)).toHaveLength(1);
        expect(result.id).toContain(objects[0].id ?? objects[0].organization.user.id);
        const sent = creates(c.create.method, c.create.path);
        expect(sent.map((r) => r.status)).toEqual(c.idempotent ? ["dropped", expect.any(Number)] : ["dropped"]);
        // The adopted object was brought to the declared inputs: a refresh shows no change.
        const read = await lifecycle(c.kind).read(result.id, result.outs);
        expect((await lifecycle(c.kind).diff(result.id, read.props ?? {}, inputs)).changes).toBe(false);
      });

      it("the request was lost before the API acted: nothing found, the create is repeated once", async () => {
        const inputs = await checked(c.kind, await c.inputs(fixture));
        fixture.emulator.clearRequests();
        fixture.emulator.injectFault({ ...c.create, drop: true });
        const result = await lifecycle(c.kind).create(inputs);
        const objects = await c.objects(fixture, inputs);
        expect(objects).toHaveLength(1);
        expect(result.id).toContain(objects[0].id ?? objects[0].organization.user.id);
        expect(creates(c.create.method, c.create.path).map((r) => r.status)).toEqual(["dropped", expect.any(Number)]);
      });

      if (c.twin) {
        const twin = c.twin;
        it("two objects it may have made: fails naming both and how to adopt one", async () => {
          const inputs = await checked(c.kind, await c.inputs(fixture));
          const existing = await twin(fixture, inputs);
          fixture.emulator.injectFault({ ...c.create, afterHandling: "drop" });
          const failure = await lifecycle(c.kind)
            .create(inputs)
            .then(
              () => undefined,
              (error: Error) => error.message,
            );
          const objects = await c.objects(fixture, inputs);
          expect(objects).toHaveLength(2);
          expect(failure).toContain(`${c.kind} create: the response was lost`);
          for (const object of objects) expect(failure).toContain(`"${object.id}"`);
          expect(failure).toContain(`"${existing}"`);
          expect(failure).toMatch(/Set importId to the one this resource should manage/);
        });
      }
    });
  }
});

describe("createWithoutDuplicates", () => {
  const ctx = () => ({ client: clientFor(), listings: new Listings() });
  const clientFor = () =>
    new HttpClient({ baseUrl: fixture.emulator.url, token: fixture.emulator.token, retry: { maxAttempts: 2 } });
  const adoptNothing = () => Promise.reject(new Error("adopt must not be called"));

  it("does not count a same-titled object made before the request began (less the clock skew)", async () => {
    const org = fixture.org();
    const older = await fixture.makeSite();
    fixture.emulator.injectFault({ method: "POST", path: "/sites$", afterHandling: "drop" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Reading the clock CLOCK_SKEW_MS ahead puts `since` right now: the older site was made before it.
    const ahead = () => Date.now() + CLOCK_SKEW_MS;
    let adopted: string | undefined;
    const inputs = { organizationId: org, title: "Docs" } as never;
    await createWithoutDuplicates(
      siteKind,
      ctx(),
      inputs,
      async (id) => {
        adopted = id;
        return { id, state: {} as never };
      },
      ahead,
    );
    const sites = await fixture.listAll(`/orgs/${org}/sites`);
    expect(sites.map((s) => s.id).sort()).toEqual([older, adopted].sort());
  });

  it("never looks up after a definite answer: a 400 fails at once with one request", async () => {
    const org = fixture.org();
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/sites$", status: 400 });
    const inputs = { organizationId: org, title: "Docs" } as never;
    const error = await createWithoutDuplicates(siteKind, ctx(), inputs, adoptNothing).catch((e: unknown) => e);
    expect(outcomeUnknown(error)).toBe(false);
    expect(fixture.calls()).toEqual([`POST /v1/orgs/${org}/sites`]);
  });

  it("gives up after the attempt budget when every attempt is lost before the API acts, and says nothing was left", async () => {
    const org = fixture.org();
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/sites$", drop: true, count: 2 });
    const inputs = { organizationId: org, title: "Docs" } as never;
    const error = (await createWithoutDuplicates(siteKind, ctx(), inputs, adoptNothing).catch(
      (e: unknown) => e,
    )) as Error;
    expect(outcomeUnknown(error)).toBe(true);
    expect(error.message).toContain("the API made no Site either (looked 2 times), so nothing is left behind");
    expect(fixture.calls()).toEqual([
      `POST /v1/orgs/${org}/sites`,
      `GET /v1/orgs/${org}/sites`,
      `POST /v1/orgs/${org}/sites`,
      `GET /v1/orgs/${org}/sites`,
    ]);
    expect(await fixture.listAll(`/orgs/${org}/sites`)).toEqual([]);
  });

  it("a 503 on a create is an unknown outcome too: looked up, then repeated", async () => {
    const org = fixture.org();
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/collections$", status: 503 });
    const inputs = await checked("Collection", { organizationId: org, title: "Handbook" });
    const result = await lifecycle("Collection").create(inputs);
    expect(fixture.calls()).toEqual([
      `POST /v1/orgs/${org}/collections`,
      `GET /v1/orgs/${org}/collections`,
      `POST /v1/orgs/${org}/collections`,
    ]);
    expect((await fixture.listAll(`/orgs/${org}/collections`)).map((c) => c.id)).toEqual([result.id]);
  });
});

describe("a Site create's steps after the POST, when answers are lost", () => {
  const sites = () => fixture.listAll(`/orgs/${fixture.org()}/sites`);
  const published = { title: "Docs", published: true };

  it("a publish whose answer is lost is sent again (a published site stays published): one site, published", async () => {
    const inputs = await checked("Site", { organizationId: fixture.org(), ...published });
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/publish$", afterHandling: "drop" });
    const result = await lifecycle("Site").create(inputs);
    // Not a failed create (removing the site, looking for it, making another): the publish alone is repeated.
    const publish = `POST /v1/orgs/${fixture.org()}/sites/${result.id}/publish`;
    expect(fixture.calls()).toEqual([`POST /v1/orgs/${fixture.org()}/sites`, publish, publish]);
    expect((await sites()).map((s) => [s.id, s.published])).toEqual([[result.id, true]]);
  });

  it("after a lost POST, the site found is the create's own: a refused publish removes it again", async () => {
    const inputs = await checked("Site", { organizationId: fixture.org(), ...published });
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/sites$", afterHandling: "drop" });
    fixture.emulator.injectFault({ method: "POST", path: "/publish$", status: 400 });
    const message = await lifecycle("Site")
      .create(inputs)
      .then(
        () => expect.fail("the create should have failed"),
        (error: Error) => error.message,
      );
    expect(message).toMatch(/^Site create: POST \/v1\/orgs\/[^ ]+\/publish failed with 400/);
    expect(message).toMatch(/the new Site "[^"]+" \("Docs"\) was removed again/);
    // Left in place, it would have no state, and the next `up` would make a second site.
    expect(await sites()).toEqual([]);
  });

  it("an object adopted by importId is never removed when bringing it to the inputs fails", async () => {
    const existing = await fixture.makeSite();
    const inputs = await checked("Site", { organizationId: fixture.org(), ...published, importId: existing });
    fixture.emulator.injectFault({ method: "POST", path: "/publish$", status: 400 });
    await expect(lifecycle("Site").create(inputs)).rejects.toThrow(/publish failed with 400/);
    expect((await sites()).map((s) => s.id)).toEqual([existing]);
  });
});
