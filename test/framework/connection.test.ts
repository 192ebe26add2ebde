import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

/**
 * A resource's own connection (`connection` input) against the emulator, with one token per organization: the
 * stack-wide token can reach only the first organization, so an object lands in the second one only through its
 * connection.
 */
const emu = useEmulator();
const TOKEN_A = "token-of-organization-a";
const TOKEN_B = "token-of-organization-b";
let orgA: string;
let orgB: string;

beforeAll(() => {
  orgA = emu.emulator.organizationId;
  orgB = emu.emulator.secondOrganizationId;
  emu.emulator.scopeToken(TOKEN_A, orgA);
  emu.emulator.scopeToken(TOKEN_B, orgB);
});
let savedToken: string | undefined;
beforeEach(() => {
  savedToken = process.env.DOCS_API_TOKEN;
  process.env.DOCS_API_TOKEN = TOKEN_A;
  process.env.ORG_B_TOKEN = TOKEN_B;
});
afterEach(() => {
  process.env.DOCS_API_TOKEN = savedToken;
  delete process.env.ORG_B_TOKEN;
});

const collections = () => lifecycle("Collection");
const titlesIn = async (org: string) => (await emu.listAll(`/orgs/${org}/collections`)).map((c) => c.title);

describe("check", () => {
  it("takes organizationId from the connection, before the stack-wide default, and keeps the connection", async () => {
    const connection = { organizationId: orgB, tokenEnv: "ORG_B_TOKEN" };
    const checked = await collections().check({}, { title: "Archive", connection });
    expect(checked.failures).toBeUndefined();
    expect(checked.inputs).toMatchObject({ organizationId: orgB, title: "Archive", connection });
    const explicit = await collections().check({}, { organizationId: orgA, title: "Archive", connection });
    expect(explicit.inputs?.organizationId).toBe(orgA);
  });

  it("rejects a malformed connection without naming the property, so the engine never echoes a token", async () => {
    const both = await collections().check(
      {},
      { organizationId: orgA, title: "T", connection: { token: "s3cr3t-value", tokenEnv: "ORG_B_TOKEN" } },
    );
    expect(both.failures).toEqual([
      { property: "", reason: "Collection.connection: give either token or tokenEnv, not both (value not shown)" },
    ]);
    const badName = await collections().check(
      {},
      { organizationId: orgA, title: "T", connection: { tokenEnv: "A-B" } },
    );
    expect(badName.failures?.[0]?.reason).toContain("Collection.connection.tokenEnv: must be an environment variable");
    expect(JSON.stringify([both, badName])).not.toContain("s3cr3t-value");
  });
});

describe("create, read, update and delete with a connection", () => {
  it("creates in the connection's organization with its token, and refresh and delete use the stored one", async () => {
    const connection = { organizationId: orgB, tokenEnv: "ORG_B_TOKEN" };
    const { inputs } = await collections().check({}, { title: "Archive", connection });
    const created = await collections().create(inputs ?? {});
    expect(created.outs).toMatchObject({ organizationId: orgB, title: "Archive", connection });
    expect(await titlesIn(orgB)).toContain("Archive");
    expect(await titlesIn(orgA)).not.toContain("Archive");

    const read = await collections().read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect(read.inputs).toMatchObject({ title: "Archive", connection });
    await collections().delete(created.id, created.outs);
    expect(await titlesIn(orgB)).not.toContain("Archive");
  });

  it("the stack-wide token cannot do it: without the connection the API refuses the second organization", async () => {
    await expect(collections().create({ organizationId: orgB, title: "Archive" })).rejects.toThrow(
      /Collection create: .*403.*no access to organization/,
    );
  });

  it("takes a token given as a secret value the same way", async () => {
    const created = await collections().create({
      organizationId: orgB,
      title: "Vault",
      connection: { token: TOKEN_B },
    });
    expect(await titlesIn(orgB)).toContain("Vault");
    await collections().delete(created.id, created.outs);
    expect(await titlesIn(orgB)).not.toContain("Vault");
  });

  it("a token the API refuses is named by where the connection takes it from", async () => {
    process.env.ORG_B_TOKEN = TOKEN_A;
    await expect(
      collections().create({ organizationId: orgB, title: "Archive", connection: { tokenEnv: "ORG_B_TOKEN" } }),
    ).rejects.toThrow(
      `Collection create: POST /v1/orgs/${orgB}/collections failed with 403 Forbidden: The token has no access to ` +
        `organization ${orgB}. The token is from this resource's connection: ` +
        "the ORG_B_TOKEN environment variable. Its user must be an admin of the organization it addresses.",
    );
    const connection = { organizationId: orgB, token: "not-a-token" };
    await expect(collections().read("c1", { organizationId: orgB, title: "Archive", connection })).rejects.toThrow(
      `The token is this resource's connection's (organization ${orgB}) secret token: fix the value the program ` +
        "gives it (refresh and destroy use the one saved by the last `pulumi up`).",
    );
  });

  it("names the unset environment variable of the connection", async () => {
    delete process.env.ORG_B_TOKEN;
    await expect(
      collections().create({ organizationId: orgB, title: "Archive", connection: { tokenEnv: "ORG_B_TOKEN" } }),
    ).rejects.toThrow(
      "Collection create: No API token: this resource's connection reads it from the ORG_B_TOKEN environment " +
        "variable, which is not set for the Pulumi CLI. Export ORG_B_TOKEN=<token> and run again.",
    );
  });

  it("a new connection is a change (saved by an update that sends nothing), never a replacement", async () => {
    const olds = { organizationId: orgB, title: "Archive", connection: { tokenEnv: "ORG_B_TOKEN" } };
    expect(await collections().diff("c1", olds, { ...olds })).toMatchObject({ changes: false });
    const rotated = { ...olds, connection: { tokenEnv: "ORG_B_TOKEN_2" } };
    // No property shows it: the plugin's detailed diff lists none, as the dynamic route's engine diff shows none.
    expect(await collections().diff("c1", olds, rotated)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {},
    });
    const { id, outs } = await collections().create(olds);
    emu.emulator.clearRequests();
    process.env.ORG_B_TOKEN_2 = TOKEN_B;
    try {
      const updated = await collections().update(id, outs, rotated);
      expect(updated.outs.connection).toEqual({ tokenEnv: "ORG_B_TOKEN_2" });
      expect(emu.calls()).toEqual([]);
    } finally {
      delete process.env.ORG_B_TOKEN_2;
    }
  });
});
