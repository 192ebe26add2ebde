import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineKind, type Props, type ResourceContext } from "../../provider/framework/kind";
import { Lifecycle } from "../../provider/framework/lifecycle";
import { Listings } from "../../provider/framework/listings";
import { Operation } from "../../provider/framework/operation";
import { UNKNOWN } from "../../provider/framework/unknown";

/**
 * The companion rule through the framework's lifecycle, in each order the engine shows a subject and its companion
 * to one provider process: a gated portal wants a gate declared for it (made-up kinds, objects kept in memory).
 * Check, diff and create are called as the engine calls them; what each operation's process would warn about at its
 * end is `operation.companions.missing()`.
 */
const portalInputs = z.strictObject({ parentId: z.string(), title: z.string(), visibility: z.string() });
const gateInputs = z.strictObject({ portalId: z.string(), url: z.string() });
type PortalInputs = z.output<typeof portalInputs>;
type GateInputs = z.output<typeof gateInputs>;

const objects = new Map<string, Props>();
let next = 1;
const memory = <T extends Props>(prefix: string) => ({
  create: async (_ctx: ResourceContext, news: T) => {
    const id = `${prefix}${next++}`;
    objects.set(id, { ...news });
    return { id, state: news };
  },
  read: async (_ctx: ResourceContext, id: string) => {
    const found = objects.get(id);
    return found && { id, state: found as T };
  },
  update: async (_ctx: ResourceContext, _id: string, _olds: T, news: T) => news,
  delete: async (_ctx: ResourceContext, id: string) => {
    objects.delete(id);
  },
});
const why = "declare a Gate with portalId: portal.id.";
const context = () =>
  ({ listings: new Listings(), client: { policy: { maxAttempts: 1 } } }) as unknown as ResourceContext;
const portalKind = defineKind<PortalInputs, PortalInputs>({
  kind: "Portal",
  docs: { description: "A test kind with a companion rule.", example: "", adoption: "" },
  scope: "organization",
  inputs: portalInputs,
  state: portalInputs,
  outputs: [],
  idFormat: "the portal id",
  replaceOnChanges: ["parentId"],
  programRules: {
    companion: { when: { property: "visibility", equals: "gated" }, kind: "Gate", parent: "portalId", why },
  },
  ...memory<PortalInputs>("p"),
});
const gateKind = defineKind<GateInputs, GateInputs>({
  kind: "Gate",
  docs: { description: "The portal's companion.", example: "", adoption: "" },
  scope: "organization",
  inputs: gateInputs,
  state: gateInputs,
  outputs: [],
  idFormat: "the gate id",
  replaceOnChanges: ["portalId"],
  ...memory<GateInputs>("g"),
});

const portal = { parentId: "org-1", title: "Partners", visibility: "gated" };
const gate = (portalId: string) => ({ portalId, url: "https://auth.example/login" });
const warned = (id?: string) =>
  `Portal "Partners"${id ? ` ("${id}")` : ""} has visibility: "gated" but the program declares no Gate for it: ${why}`;

/** Check as the engine does: the checked inputs, which diff and create then get. */
async function check(lifecycle: Pick<Lifecycle<Props, Props>, "check">, olds: Props, news: Props): Promise<Props> {
  const result = await lifecycle.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs ?? {};
}

/** The operation under way, and the two kinds' lifecycles in it. */
let operation: Operation;
let portals: Lifecycle<PortalInputs, PortalInputs>;
let gates: Lifecycle<GateInputs, GateInputs>;

/** A new provider process: the next operation. */
function nextOperation() {
  operation = new Operation([]);
  portals = new Lifecycle(portalKind, operation, context);
  gates = new Lifecycle(gateKind, operation, context);
}

/** The state after an `up` that created the portal and its gate: ids and stored inputs. */
async function deployed() {
  const portalChecked = await check(portals, {}, portal);
  const portalId = (await portals.create(portalChecked)).id;
  const gateChecked = await check(gates, {}, gate(portalId));
  const gateId = (await gates.create(gateChecked)).id;
  nextOperation();
  return { portalId, gateId, portalChecked, gateChecked };
}

beforeEach(() => {
  nextOperation();
  objects.clear();
});

describe("a gated portal declared with its gate is never warned about, in any operation", () => {
  it("the preview of a new program: the gate's portalId is not known yet", async () => {
    await check(portals, {}, portal);
    await check(gates, {}, gate(UNKNOWN));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("the update of `pulumi up` creating both: the portal's id comes from its create", async () => {
    const checked = await check(portals, {}, portal);
    const { id } = await portals.create(checked);
    await gates.create(await check(gates, {}, gate(id)));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("the update adopting the portal by importId: its id comes from the adoption", async () => {
    objects.set("existing", { ...portal });
    const checked = await check(portals, {}, { ...portal, importId: "existing" });
    const { id } = await portals.create(checked);
    expect(id).toBe("existing");
    await gates.create(await check(gates, {}, gate(id)));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("a preview or update of an unchanged program: the ids come from the diffs", async () => {
    const { portalId, portalChecked, gateChecked } = await deployed();
    await portals.diff(portalId, portalChecked, await check(portals, portalChecked, portal));
    await gates.diff("g", gateChecked, await check(gates, gateChecked, gate(portalId)));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("a preview replacing the portal: its next id, and so the gate's portalId, are not known yet", async () => {
    const { portalId, portalChecked } = await deployed();
    const moved = await check(portals, portalChecked, { ...portal, parentId: "org-2" });
    expect((await portals.diff(portalId, portalChecked, moved)).replaces).toEqual(["parentId"]);
    await check(gates, {}, gate(UNKNOWN));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("the update replacing the portal: the create's new id, not the diff's old one", async () => {
    const { portalId, portalChecked } = await deployed();
    const moved = await check(portals, portalChecked, { ...portal, parentId: "org-2" });
    await portals.diff(portalId, portalChecked, moved);
    const { id } = await portals.create(moved);
    expect(id).not.toBe(portalId);
    await check(gates, {}, gate(id));
    expect(operation.companions.missing()).toEqual([]);
  });

  it("a refresh, which diffs the state and checks nothing", async () => {
    const { portalId, gateId, portalChecked, gateChecked } = await deployed();
    await portals.diff(portalId, portalChecked, portalChecked);
    await gates.diff(gateId, gateChecked, gateChecked);
    expect(operation.companions.missing()).toEqual([]);
  });
});

describe("a gated portal without its gate is warned about", () => {
  it("in the preview of a new program, and in the update creating it, with the id it got", async () => {
    await check(portals, {}, portal);
    expect(operation.companions.missing()).toEqual([warned()]);
    nextOperation();
    const { id } = await portals.create(await check(portals, {}, portal));
    expect(operation.companions.missing()).toEqual([warned(id)]);
  });

  it("in a preview of the deployed portal, and when its gate names another portal", async () => {
    const { portalId, portalChecked } = await deployed();
    await portals.diff(portalId, portalChecked, await check(portals, portalChecked, portal));
    expect(operation.companions.missing()).toEqual([warned(portalId)]);
    await check(gates, {}, gate("another-portal"));
    expect(operation.companions.missing()).toEqual([warned(portalId)]);
  });
});
