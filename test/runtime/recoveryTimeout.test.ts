import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked } from "../support/lifecycle";
import { RECOVERY_CASES } from "./recoveryCases";

// A client of this file's provider runtime gives up on an answer after 300 ms (read when the client is first made).
process.env.DOCS_API_TIMEOUT_MS = "300";
const fixture = useEmulator();

describe("a create that times out after the API acted is adopted, not repeated", () => {
  for (const c of RECOVERY_CASES) {
    it(c.kind, async () => {
      const inputs = await checked(c.kind, await c.inputs(fixture));
      fixture.emulator.clearRequests();
      fixture.emulator.injectFault({ ...c.create, delayResponseMs: 800 });
      const result = await lifecycle(c.kind).create(inputs);
      const objects = await c.objects(fixture, inputs);
      expect(objects).toHaveLength(1);
      expect(result.id).toContain(objects[0].id ?? objects[0].organization.user.id);
      // The delayed answer is logged once written (to a closed connection): wait for it, then count the creates.
      const sent = () =>
        fixture.emulator
          .requests()
          .filter((r) => r.method === c.create.method && new RegExp(c.create.path).test(r.path));
      for (let waited = 0; !sent().some((r) => r.clientClosed) && waited < 3000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The client hung up on the delayed answer; only an idempotent PUT is sent again.
      expect(sent().map((r) => r.clientClosed ?? false)).toEqual(c.idempotent ? [true, false] : [true]);
    });
  }
});
