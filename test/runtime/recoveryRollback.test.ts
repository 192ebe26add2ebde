import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked } from "../support/lifecycle";

const fixture = useEmulator();
const collections = () => fixture.listAll(`/orgs/${fixture.org()}/collections`);

/** A collection create whose follow-up PATCH (the description) the API refuses, so the create rolls back. */
async function failingCreate(): Promise<string> {
  const inputs = await checked("Collection", {
    organizationId: fixture.org(),
    title: "Handbook",
    description: "How we work",
  });
  fixture.emulator.clearRequests();
  fixture.emulator.injectFault({ method: "PATCH", path: "^/v1/collections/[^/]+$", status: 400 });
  return lifecycle("Collection")
    .create(inputs)
    .then(
      () => expect.fail("the create should have failed"),
      (error: Error) => error.message,
    );
}

describe("rollback of a failed create", () => {
  it("reads a 404 on the undo's DELETE as the object gone already, not as a failed removal", async () => {
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/collections/[^/]+$", status: 404, count: 1 });
    const message = await failingCreate();
    expect(message).toMatch(/the new Collection "[^"]+" \("Handbook"\) was removed again/);
    expect(message).not.toMatch(/failed too/);
  });

  it("waits out a 429 like any request, then removes the half-made object", async () => {
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/collections/[^/]+$", status: 429, retryAfter: "1" });
    const message = await failingCreate();
    expect(message).toMatch(/^Collection create: PATCH .* failed with 400 Bad Request/);
    expect(message).toMatch(/the new Collection "[^"]+" \("Handbook"\) was removed again/);
    const deletes = fixture.emulator.requests().filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.status)).toEqual([429, 205]);
    expect(await collections()).toEqual([]);
  });

  it("that fails too names the object left behind (kind, id, title) and how to adopt or delete it", async () => {
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/collections/[^/]+$", status: 500, count: 3 });
    const message = await failingCreate();
    const left = await collections();
    expect(left).toHaveLength(1);
    const id = left[0].id;
    expect(message).toContain(
      `removing the new Collection "${id}" ("Handbook") failed too (DELETE /v1/collections/${id}`,
    );
    expect(message).toContain(`adopt it with importId "${id}" or delete it`);
    // The API's refusal of the PATCH stays the error's subject.
    expect(message).toMatch(/^Collection create: PATCH \/v1\/collections\/[^ ]+ failed with 400/);
  });
});
