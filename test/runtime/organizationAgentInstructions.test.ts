import { describe, expect, it } from "vitest";
import { documentOf } from "../../provider/client";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const path = (org: string) => `/orgs/${org}/agent-instructions`;
const put = (org: string, text: string) => fixture.api("PUT", path(org), { instructions: documentOf(text) });

describeLifecycle(
  {
    kind: "OrganizationAgentInstructions",
    inputs: () => ({ organizationId: fixture.org(), instructions: "Answer in the reader's language." }),
    created: (state) =>
      expect(state).toMatchObject({ organizationId: fixture.org(), instructions: "Answer in the reader's language." }),
    updates: [
      updateTo("instructions", "Link to the page an answer comes from.\nNever guess a version number."),
      updateTo("instructions", "", "instructions (cleared)"),
    ],
    replaces: [
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => expect((await put(id, "Changed by hand.")).status).toBe(200),
      expect: (state) => expect(state.instructions).toBe("Changed by hand."),
    },
    adopt: {
      existing: async () => {
        expect((await put(fixture.org(), "Old instructions.")).status).toBe(200);
        return fixture.org();
      },
      inputs: () => ({ organizationId: fixture.org(), instructions: "New instructions." }),
      expect: (state) => expect(state.instructions).toBe("New instructions."),
    },
    deleteKeepsObject: "every organization has instructions; deleting the resource only stops managing them",
  },
  fixture,
);

describe("OrganizationAgentInstructions behaviour", () => {
  it("writes nothing when the organization's instructions already read as the declared text", async () => {
    expect((await put(fixture.org(), "Be brief.\nCite pages.")).status).toBe(200);
    fixture.emulator.clearRequests();
    await created("OrganizationAgentInstructions", {
      organizationId: fixture.org(),
      instructions: "Be brief.\nCite pages.",
    });
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.route}`)).toEqual([
      "GET /v1/orgs/{organizationId}/agent-instructions",
    ]);
  });

  it("sends the text as one paragraph per line, replacing the document whole", async () => {
    await created("OrganizationAgentInstructions", { organizationId: fixture.org(), instructions: "One.\nTwo." });
    const sent = fixture.emulator.requests().find((r) => r.method === "PUT");
    expect(sent?.requestBody).toEqual({ instructions: documentOf("One.\nTwo.") });
  });

  it("fails at preview when two resources declare the instructions of one organization", async () => {
    const check = (instructions: string) =>
      lifecycle("OrganizationAgentInstructions").check({}, { organizationId: fixture.org(), instructions });
    expect((await check("A")).failures).toBeUndefined();
    const second = await check("B");
    expect(second.failures?.[0]?.reason).toMatch(
      /another OrganizationAgentInstructions of this program already declares/,
    );
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
