import { expect, it } from "vitest";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked } from "../support/lifecycle";

// Processing steps long enough that the spec a lost create made is still pending when the create looks for it.
const fixture = useEmulator({ openApiStepMs: 400 });

it("a create whose answer was lost adopts its spec once processed, as a create waits: a refresh changes nothing", async () => {
  const inputs = await checked("OpenApiSpec", {
    organizationId: fixture.org(),
    slug: "lost",
    sourceUrl: "https://specs.example/petstore/openapi.json",
  });
  fixture.emulator.injectFault({ method: "POST", path: "/openapi$", afterHandling: "drop" });
  const { id, outs } = await lifecycle("OpenApiSpec").create(inputs);
  expect(outs).toMatchObject({ slug: "lost", processingState: "complete" });
  expect((await fixture.api("GET", `/orgs/${fixture.org()}/openapi/lost`)).body).toMatchObject({
    processingState: "complete",
  });
  // The next refresh is a new operation.
  startOperation();
  expect((await lifecycle("OpenApiSpec").read(id, outs)).props).toEqual(outs);
});
