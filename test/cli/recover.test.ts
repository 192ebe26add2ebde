import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { pendingCreates, type ReadCreated, recoveredState, resolvePendingCreates } from "../../cli/recover";
import { lifecycle } from "../../provider/runtime";
import { runCli, stateFile, useTempDirs } from "../support/cli";
import { callApi, useEmulator } from "../support/emulator";

const fx = useEmulator();
const tempDir = useTempDirs("recover-");
const urn = (kind: string, name: string) => `urn:pulumi:dev::docs::pulumi-nodejs:dynamic/docs:${kind}::${name}`;
/** What `docs-platform recover` looks with. */
const find = (kind: string, inputs: Record<string, unknown>, since: Date) => lifecycle(kind).findCreated(inputs, since);
/** What `docs-platform recover` reads an imported object with. */
const read: ReadCreated = async (kind, id, inputs) => {
  const found = await lifecycle(kind).lookup(id, inputs, inputs);
  return found.id === "" ? undefined : found.props;
};
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

interface EditedDeployment {
  resources: { urn: string; id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[];
  pending_operations: { type: string; resource: { urn: string } }[];
}

/** The deployment recover would import, or a failed expectation when it would import nothing. */
function deploymentOf(recovered: Awaited<ReturnType<typeof recoveredState>>): EditedDeployment {
  if (!recovered) throw new Error("recover changed nothing");
  return (recovered.exported as { deployment: EditedDeployment }).deployment;
}

/** A `pulumi stack export` whose update was killed with these creates in flight. */
function exported(creates: { urn: string; inputs: Record<string, unknown> }[]) {
  return {
    version: 3,
    deployment: {
      resources: [],
      pending_operations: [
        ...creates.map((c) => ({
          type: "creating",
          resource: {
            urn: c.urn,
            type: c.urn.split("::")[2],
            inputs: { __provider: "exports.handler = …", ...c.inputs },
            created: new Date().toISOString(),
          },
        })),
        {
          type: "deleting",
          resource: { urn: urn("Collection", "old"), type: "pulumi-nodejs:dynamic/docs:Collection" },
        },
      ],
    },
  };
}

describe("docs-platform recover", () => {
  it("imports what a killed create made, clears what it did not, and leaves duplicates to the user", async () => {
    const made = await callApi(fx.emulator, "POST", `/orgs/${fx.org()}/collections`, { title: "Made before the kill" });
    for (const _ of [1, 2]) await callApi(fx.emulator, "POST", `/orgs/${fx.org()}/collections`, { title: "Twice" });
    const pending = pendingCreates(
      exported([
        { urn: urn("Collection", "made"), inputs: { organizationId: fx.org(), title: "Made before the kill" } },
        { urn: urn("Collection", "never"), inputs: { organizationId: fx.org(), title: "Never made" } },
      ]),
    );
    expect(pending.map((p) => [p.kind, Object.keys(p.inputs).includes("__provider")])).toEqual([
      ["Collection", false],
      ["Collection", false],
    ]);
    const resolutions = await resolvePendingCreates(pending, find);
    expect(resolutions).toEqual([
      {
        urn: urn("Collection", "made"),
        kind: "Collection",
        action: "import",
        id: made.body.id,
        title: "Made before the kill",
      },
      { urn: urn("Collection", "never"), kind: "Collection", action: "clear" },
    ]);
    const state = exported([
      { urn: urn("Collection", "made"), inputs: { organizationId: fx.org(), title: "Made before the kill" } },
      { urn: urn("Collection", "never"), inputs: { organizationId: fx.org(), title: "Never made" } },
    ]);
    const recovered = await recoveredState(state, resolutions, read);
    expect(recovered).toMatchObject({ imported: [urn("Collection", "made")], cleared: [urn("Collection", "never")] });
    const deployment = deploymentOf(recovered);
    // The made create is a resource with the outputs a create returns, and the serialized provider to call again.
    expect(deployment.resources).toHaveLength(1);
    expect(deployment.resources[0]).toMatchObject({
      urn: urn("Collection", "made"),
      id: made.body.id,
      inputs: { title: "Made before the kill" },
      outputs: {
        __provider: "exports.handler = …",
        title: "Made before the kill",
        __declared: ["organizationId", "title"],
      },
    });
    // Both creates are resolved; the pending delete is none of recover's business.
    expect(deployment.pending_operations.map((op) => op.type)).toEqual(["deleting"]);
    // The input is not changed.
    expect(state.deployment.pending_operations).toHaveLength(3);

    const twice = await resolvePendingCreates(
      pendingCreates(
        exported([{ urn: urn("Collection", "twice"), inputs: { organizationId: fx.org(), title: "Twice" } }]),
      ),
      find,
    );
    expect(twice[0]).toMatchObject({ action: "ambiguous", candidates: [{ title: "Twice" }, { title: "Twice" }] });
    // An undecided create stays pending: nothing to write until the user decides.
    expect(await recoveredState(exported([]), twice, read)).toBeUndefined();
  });

  it("imports an adopting create by its importId without looking, and leaves other providers' creates alone", async () => {
    const pending = pendingCreates(
      exported([
        { urn: urn("Collection", "adopted"), inputs: { organizationId: fx.org(), title: "A", importId: "abc123" } },
        { urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b", inputs: {} },
      ]),
    );
    const resolutions = await resolvePendingCreates(pending, async () => {
      throw new Error("no lookup expected");
    });
    expect(resolutions.map((r) => r.action)).toEqual(["import", "foreign"]);
    const state = exported([
      { urn: urn("Collection", "adopted"), inputs: { organizationId: fx.org(), title: "A", importId: "abc123" } },
      { urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b", inputs: {} },
    ]);
    const recovered = await recoveredState(state, resolutions, async (kind, id, inputs) => ({ kind, id, ...inputs }));
    const deployment = deploymentOf(recovered);
    expect(deployment.resources.map((r) => [r.id, r.outputs.importId])).toEqual([["abc123", "abc123"]]);
    expect(deployment.pending_operations.map((op) => op.resource.urn)).toEqual([
      "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b",
      urn("Collection", "old"),
    ]);
  });

  it("matches secret inputs by value and writes secret outputs as secrets; an object gone since is cleared", async () => {
    const secretOf = (value: unknown) => ({
      [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270",
      plaintext: JSON.stringify(value),
    });
    const state = exported([
      { urn: urn("SiteShareLink", "link"), inputs: { siteId: "s1", name: secretOf("Reviewers") } },
      { urn: urn("Collection", "gone"), inputs: { title: "Gone" } },
    ]);
    const operation = state.deployment.pending_operations[0] as { resource: Record<string, unknown> };
    operation.resource.additionalSecretOutputs = ["url"];
    const pending = pendingCreates(state);
    expect(pending[0]?.inputs).toEqual({ siteId: "s1", name: "Reviewers" });
    const seen: Record<string, unknown>[] = [];
    const recovered = await recoveredState(
      state,
      [
        { urn: urn("SiteShareLink", "link"), kind: "SiteShareLink", action: "import", id: "l1", title: "Reviewers" },
        { urn: urn("Collection", "gone"), kind: "Collection", action: "import", id: "c1", title: "Gone" },
      ],
      async (kind, _id, inputs) => {
        seen.push(inputs);
        return kind === "Collection" ? undefined : { name: "Reviewers", url: "https://x/?token=t", siteId: "s1" };
      },
    );
    expect(seen[0]).toEqual({ siteId: "s1", name: "Reviewers" });
    expect(recovered).toMatchObject({ imported: [urn("SiteShareLink", "link")], cleared: [urn("Collection", "gone")] });
    const [link] = deploymentOf(recovered).resources;
    expect(link?.outputs).toEqual({
      __provider: "exports.handler = …",
      name: secretOf("Reviewers"),
      url: secretOf("https://x/?token=t"),
      siteId: "s1",
    });
  });

  it("a killed Space create is found by its title under its parent and recorded; unmanaged then lists nothing of it", async () => {
    const made = await callApi(fx.emulator, "POST", `/orgs/${fx.org()}/spaces`, { title: "Made before the kill" });
    expect(made.status).toBe(201);
    const state = exported([
      { urn: urn("Space", "guides"), inputs: { organizationId: fx.org(), title: "Made before the kill" } },
    ]);
    const resolutions = await resolvePendingCreates(pendingCreates(state), find);
    expect(resolutions).toEqual([
      { urn: urn("Space", "guides"), kind: "Space", action: "import", id: made.body.id, title: "Made before the kill" },
    ]);
    const recovered = deploymentOf(await recoveredState(state, resolutions, read));
    expect(recovered.resources.map((r) => [r.urn, r.id])).toEqual([[urn("Space", "guides"), made.body.id]]);

    const file = stateFile(tempDir(), recovered.resources);
    const unmanaged = await runCli([
      "unmanaged",
      "--organization",
      fx.org(),
      "--state",
      file,
      "--include-spaces",
      "--json",
    ]);
    const listed = JSON.parse(unmanaged.stdout).unmanaged as { kind: string; id: string }[];
    expect(listed).not.toContainEqual(expect.objectContaining({ id: made.body.id }));
  });

  it("has --help, and rejects unknown options with exit code 2", async () => {
    const help = await runCli(["recover", "--help"]);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain("pulumi stack import");
    const bogus = await runCli(["recover", "--bogus"]);
    expect(bogus.code).toBe(EXIT.usage);
    expect(bogus.stderr).toContain("--bogus");
  });
});
