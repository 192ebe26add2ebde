import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();
const collections = () => lifecycle("Collection");
const inputs = () => ({ organizationId: fixture.org(), title: "Docs", parentId: null });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error.message,
  );

/** Every API error names the resource kind, the operation, the HTTP call and status, the API's words and the fix. */
describe("errors users can act on", () => {
  it("401 names both token settings", async () => {
    fixture.emulator.injectFault({ method: "POST", count: 1, status: 401 });
    const message = await failure(collections().create(inputs()));
    expect(message).toMatch(/^Collection create: POST \/v1\/orgs\/\S+\/collections failed with 401 Unauthorized: /);
    expect(message).toContain("docs:apiToken");
    expect(message).toContain("DOCS_API_TOKEN");
    // Only an operation for user tokens only asks for a personal token (test/runtime/userTokenOnly.test.ts).
    expect(message).not.toContain("personal API token");
  });

  it("403 passes on the permission the API names", async () => {
    fixture.emulator.injectFault({
      method: "POST",
      count: 1,
      status: 403,
      body: { error: { code: 403, message: "Missing permission: createContent" } },
    });
    const message = await failure(collections().create(inputs()));
    expect(message).toMatch(/403 Forbidden: Missing permission: createContent\. .*permission/);
  });

  it("409 suggests adopting with importId only when the API says the object already exists", async () => {
    const conflict = (message: string) =>
      fixture.emulator.injectFault({
        method: "POST",
        count: 1,
        status: 409,
        body: { error: { code: 409, message } },
      });
    conflict('A collection "Docs" already exists');
    expect(await failure(collections().create(inputs()))).toMatch(/409 Conflict: .*already exists.*importId/);
    conflict("Cannot move a collection into itself");
    const other = await failure(collections().create(inputs()));
    expect(other).toMatch(/409 Conflict: Cannot move a collection into itself/);
    expect(other).not.toMatch(/importId/);
  });

  it("the emulator's one 409 (a transfer to the organization the collection is already in) suggests no importId", async () => {
    const second = fixture.emulator.secondOrganizationId;
    const made = await collections().create(inputs());
    // Transferred by hand, and the program declares the same move before a refresh saw it.
    expect((await fixture.api("POST", `/collections/${made.id}/transfer`, { organization: second })).status).toBe(200);
    const news = { ...inputs(), organizationId: second };
    const message = await failure(collections().update(made.id, made.outs, news));
    expect(message).toMatch(/POST \/v1\/collections\/\S+\/transfer failed with 409 Conflict: .*already belongs/);
    expect(message).not.toMatch(/importId/);
  });

  it("404 on adoption names importId and its format", async () => {
    const message = await failure(collections().create({ ...inputs(), importId: "missing-collection" }));
    expect(message).toMatch(/importId "missing-collection" names no existing Collection.*Fix importId \(format: /);
  });

  it("a missing token fails at call time with both settings, never in check", async () => {
    const saved = process.env.DOCS_API_TOKEN;
    delete process.env.DOCS_API_TOKEN;
    try {
      expect((await collections().check({}, inputs())).failures).toBeUndefined();
      const message = await failure(collections().read("any", inputs()));
      expect(message).toMatch(/No API token\. .*docs:apiToken.*DOCS_API_TOKEN/);
    } finally {
      process.env.DOCS_API_TOKEN = saved;
    }
  });

  it("a server that keeps failing is reported with the attempt count", async () => {
    fixture.emulator.injectFault({ method: "GET", count: 10, status: 503, retryAfter: "0" });
    const message = await failure(collections().read("anything", inputs()));
    expect(message).toMatch(
      /^Collection "anything" read: GET \/v1\/collections\/anything failed with 503 .*\(after 3 attempts\)/,
    );
  });
});
