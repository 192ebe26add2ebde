import { describe, expect, it } from "vitest";
import { EXIT, type Io, main } from "../../cli/main";
import { pendingCreates, refreshArgs, resolvePendingCreates } from "../../cli/recover";
import { lifecycle } from "../../provider/runtime";
import { callApi, useEmulator } from "../support/emulator";

const fx = useEmulator();
const org = () => fx.emulator.organizationId;
const urn = (kind: string, name: string) => `urn:pulumi:dev::docs::pulumi-nodejs:dynamic/docs:${kind}::${name}`;
const find = async (kind: string, inputs: Record<string, unknown>, since: Date) =>
  (await lifecycle(kind).findCreated(inputs, since)) ?? [];

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
    const made = await callApi(fx.emulator, "POST", `/orgs/${org()}/collections`, { title: "Made before the kill" });
    for (const _ of [1, 2]) await callApi(fx.emulator, "POST", `/orgs/${org()}/collections`, { title: "Twice" });
    const pending = pendingCreates(
      exported([
        { urn: urn("Collection", "made"), inputs: { organizationId: org(), title: "Made before the kill" } },
        { urn: urn("Collection", "never"), inputs: { organizationId: org(), title: "Never made" } },
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
    expect(refreshArgs(resolutions)).toEqual([
      "refresh",
      "--yes",
      "--skip-preview",
      "--import-pending-creates",
      urn("Collection", "made"),
      made.body.id,
      "--clear-pending-creates",
    ]);

    const twice = await resolvePendingCreates(
      pendingCreates(
        exported([{ urn: urn("Collection", "twice"), inputs: { organizationId: org(), title: "Twice" } }]),
      ),
      find,
    );
    expect(twice[0]).toMatchObject({ action: "ambiguous", candidates: [{ title: "Twice" }, { title: "Twice" }] });
    // Clearing would drop the undecided create with the others: nothing runs until the user decides.
    expect(refreshArgs(twice)).toBeUndefined();
  });

  it("imports an adopting create by its importId without looking, and leaves other providers' creates alone", async () => {
    const pending = pendingCreates(
      exported([
        { urn: urn("Collection", "adopted"), inputs: { organizationId: org(), title: "A", importId: "abc123" } },
        { urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b", inputs: {} },
      ]),
    );
    const resolutions = await resolvePendingCreates(pending, async () => {
      throw new Error("no lookup expected");
    });
    expect(resolutions.map((r) => r.action)).toEqual(["import", "foreign"]);
    expect(refreshArgs(resolutions)).toEqual([
      "refresh",
      "--yes",
      "--skip-preview",
      "--import-pending-creates",
      urn("Collection", "adopted"),
      "abc123",
    ]);
  });

  it("has --help, and rejects unknown options with exit code 2", async () => {
    let out = "";
    let err = "";
    const io: Io = { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) } };
    expect(await main(["recover", "--help"], io)).toBe(EXIT.ok);
    expect(out).toContain("--import-pending-creates");
    expect(await main(["recover", "--bogus"], io)).toBe(EXIT.usage);
    expect(err).toContain("--bogus");
  });
});
