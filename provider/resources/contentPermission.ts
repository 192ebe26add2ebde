/**
 * Content permissions: one kind per target (`SpacePermission`, `CollectionPermission`, `SitePermission`), each one
 * grant of a role to a team or a user, as pulumi-github's `TeamRepository` is one grant per team and repository. One
 * resource per grant keeps each grant's preview, drift and removal its own; the three kinds differ only in the target
 * their ids name, so each is made by this one function (spacePermission.ts, collectionPermission.ts, sitePermission.ts).
 */
import { z } from "zod";
import {
  type ApiGrant,
  type Grantee,
  grant,
  granteesPath,
  listGrants,
  listOrganizationMembers,
  listTeams,
  organizationMembersPath,
  type PermissionTarget,
  permissionsPath,
  revokeGrant,
  setGrantRole,
  teamsPath,
} from "../client";
import { undoIfActed, undoOnFailure } from "../framework/cleanup";
import {
  apiId,
  apiIdPair,
  defineKind,
  idRef,
  type ListedObject,
  type ListingParent,
  type ResourceContext,
} from "../framework/kind";
import { UNKNOWN } from "../framework/unknown";
import { ROLES } from "./common";
import { memberName } from "./organizationMember";

/**
 * A grant kind's inputs: its target's ids, exactly one grantee and the role. Declared, as zod cannot infer an object
 * whose keys are a type parameter; test/runtime/types.test.ts holds each kind's generated class to these types.
 */
export type GrantInputs<Ids extends string, Role extends string = (typeof ROLES)[number]> = Record<Ids, string> & {
  teamId?: string;
  userId?: string;
  role: Role;
};

/** The role a grant reports as `null` (the official `MemberRoleOrGuest`): access without a member's role. */
const GUEST = "guest";
/** A grant kind's state: its target's ids, the grantee (the other one `null`) and the role as the API reports it. */
export type GrantState<Ids extends string> = Record<Ids, string> & {
  teamId: string | null;
  userId: string | null;
  role: string;
};

interface TargetInfo<Ids extends string, Guest extends boolean> {
  kind: string;
  /** The target's word in texts (`space`). */
  noun: string;
  /** The target's id inputs, the last one naming the target itself (`["organizationId", "siteId"]`). */
  ids: readonly Ids[];
  idTexts: Record<Ids, string>;
  target(ids: Record<Ids, string>): PermissionTarget;
  /** The kind of the target, under whose objects the grants are listed. */
  targetKind: string;
  scope: "organization" | "site";
  /** The target's `…/permissions` path as the official document writes it, for the reference. */
  apiPath: string;
  /**
   * Why a guest grant (`role: "guest"`) is allowed on this target: the API must report it back, else drift could not
   * be seen. Without it, `guest` is not a role of the kind.
   */
  guest?: Guest extends true ? string : undefined;
  example: string;
}

const grantee = {
  teamId: idRef("Team").optional().describe("The team granted the role. Exactly one of `teamId` and `userId`."),
  userId: idRef("OrganizationMember")
    .optional()
    .describe("The user granted the role (a member's user id). Exactly one of `teamId` and `userId`."),
};

const ROLE_TEXT = "The role granted: `read`, `comment`, `review`, `edit`, `create` or `admin`";
// Registered: the organization's roles (SamlProvider, OrganizationMember, …) are the same type, named once.
const role = z.enum(ROLES).meta({ id: "Role" }).describe(`${ROLE_TEXT}. A change applies in place.`);
const roleOrGuest = z
  .enum([...ROLES, GUEST])
  .meta({ id: "RoleOrGuest" })
  .describe(`${ROLE_TEXT}, or \`guest\`. A change applies in place.`);

/** What the API takes for a role: a guest is `null`. */
const apiRole = (declared: string): string | null => (declared === GUEST ? null : declared);

/** Names of the organization's teams and members by `<grantee>/<id>`, listed on first use: only a grant needs them. */
function granteeNames(ctx: ResourceContext, organizationId: string): () => Promise<Map<string, string>> {
  let names: Promise<Map<string, string>> | undefined;
  const members = () => listOrganizationMembers(ctx.client, organizationId);
  return () =>
    (names ??= Promise.all([
      ctx.listings.get(teamsPath(organizationId), () => listTeams(ctx.client, organizationId)),
      ctx.listings.get(organizationMembersPath(organizationId), members, { survivesWrites: true }),
    ]).then(
      ([teams, found]) =>
        new Map([
          ...teams.map((t) => [`team/${t.id}`, t.title] as const),
          ...found.map((m) => [`user/${m.user.id}`, memberName(m.user)] as const),
        ]),
    ));
}

export function definePermissionKind<Ids extends string, Guest extends boolean = false>(info: TargetInfo<Ids, Guest>) {
  /** The input naming the target itself (the last of its ids). */
  const targetInput = info.ids[info.ids.length - 1]!;
  const idShape = Object.fromEntries(
    info.ids.map((key) => [key, (key === targetInput ? idRef(info.targetKind) : apiId).describe(info.idTexts[key])]),
  ) as Record<Ids, typeof apiId>;
  const inputs = z
    .strictObject({ ...idShape, ...grantee, role: info.guest ? roleOrGuest : role })
    .superRefine((news: Record<string, unknown>, ctx) => {
      const team = news.teamId;
      const user = news.userId;
      if (team === UNKNOWN || user === UNKNOWN || (team === undefined) !== (user === undefined)) return;
      const property = team === undefined ? "teamId" : "userId";
      ctx.addIssue({ code: "custom", path: [property], message: "exactly one of teamId and userId must be set" });
    });
  const state = z.object({
    ...(Object.fromEntries(info.ids.map((key) => [key, z.string()])) as Record<Ids, z.ZodString>),
    teamId: z.string().nullable().default(null),
    userId: z.string().nullable().default(null),
    role: z.string(),
  });
  type Inputs = GrantInputs<Ids, (typeof ROLES)[number] | (Guest extends true ? typeof GUEST : never)>;
  type State = GrantState<Ids>;
  type Known = { teamId?: string | null; userId?: string | null } & Record<Ids, string>;

  const targetId = (known: Record<Ids, string>) => known[info.ids[info.ids.length - 1] as Ids];
  const granteeOf = (known: Known): { grantee: Grantee; id: string } =>
    known.teamId ? { grantee: "team", id: known.teamId } : { grantee: "user", id: known.userId ?? "" };

  const toState = (known: Known, found: ApiGrant): State =>
    ({
      ...Object.fromEntries(info.ids.map((key) => [key, known[key]])),
      teamId: known.teamId ?? null,
      userId: known.userId ?? null,
      role: found.role ?? GUEST,
    }) as State;

  /** The grant as the target's listing of teams or users reports it; a refresh of many grants shares the listing. */
  async function find(ctx: ResourceContext, known: Known, fresh: boolean): Promise<State | undefined> {
    const target = info.target(known);
    const { grantee, id } = granteeOf(known);
    const load = () => listGrants(ctx.client, target, grantee);
    const grants = fresh ? await load() : await ctx.listings.get(granteesPath(target, grantee), load);
    const found = grants.find((g) => g.granteeId === id);
    return found && toState(known, found);
  }

  async function readBack(ctx: ResourceContext, known: Known): Promise<State> {
    ctx.listings.invalidate(permissionsPath(info.target(known)));
    const found = await find(ctx, known, true);
    if (!found) throw new Error(`${info.kind}: the API accepted the grant but does not list it`);
    return found;
  }

  /** The team and user grants on one target, titled by grantee and target. */
  async function grantsOn(ctx: ResourceContext, parent: ListingParent): Promise<ListedObject[]> {
    const targetIds = Object.fromEntries(info.ids.map((key) => [key, String(parent.ids[key])])) as Record<Ids, string>;
    const target = info.target(targetIds);
    const names = granteeNames(ctx, String(parent.ids.organizationId));
    const found: ListedObject[] = [];
    for (const grantee of ["team", "user"] as const) {
      const load = () => listGrants(ctx.client, target, grantee);
      for (const grant of await ctx.listings.get(granteesPath(target, grantee), load)) {
        const name = (await names()).get(`${grantee}/${grant.granteeId}`) ?? grant.granteeId;
        found.push({
          id: `${targetId(targetIds)}/${grant.granteeId}`,
          title: `${name} on ${parent.title}`,
          known: { ...targetIds, [`${grantee}Id`]: grant.granteeId },
        });
      }
    }
    return found;
  }

  const replaceOnChanges: (Ids | "teamId" | "userId")[] = [...info.ids, "teamId", "userId"];

  return defineKind<Inputs, State>({
    kind: info.kind,
    docs: {
      description: `One role granted on a ${info.noun} to a team or to a user.`,
      adoption:
        `\`importId: "<${info.ids[info.ids.length - 1]}>/<teamId or userId>"\`, naming the same ${info.noun} and ` +
        "grantee as the inputs. Nothing is written when the granted role is the declared one. Adoption is optional: " +
        "create grants the role with the API's idempotent grant call, so declaring a grant that exists sets its role.",
      notes: [
        `- Create is \`POST ${info.apiPath}\` ` +
          "with one team or user; a change of `role` is a `PATCH` of that grant; delete removes the grant " +
          "(the team or user keeps whatever access other grants and default levels give).",
        "- There is no call that reads one grant: the provider lists the target's team or user grants. A refresh of " +
          `many grants on one ${info.noun} makes one listing request per grantee type. A grant removed or changed by ` +
          "hand shows in `pulumi preview --refresh`.",
        "- A create that fails after the API may have granted the role (every answer lost, a 5xx, the grant not read " +
          "back) revokes it again, so that no grant outlives a failed `up` unrecorded: access stays what the program " +
          "declares. A grant that existed before the program declared it is revoked too; the next `up` grants it again.",
        "- `teamId` xor `userId` is checked offline. A change of the target or the grantee replaces the grant " +
          "(deleting first, since the old and new grant may be the same pair).",
        "- The grant's own role only: access the grantee gets from a collection's or the organization's default level " +
          "is not part of it (the API's `…/permissions/aggregate` listing is not used).",
        ...(info.guest
          ? [
              `- \`role: "guest"\` grants guest access (the API's \`null\` role) with \`POST ${info.apiPath}\`: the ` +
                `grant's \`PATCH\` takes only a role. ${info.guest}`,
            ]
          : []),
      ],
      example: info.example,
    },
    scope: info.scope,
    inputs: inputs as z.ZodType<Inputs, unknown>,
    state: state as z.ZodType<State, unknown>,
    parent: { kind: info.targetKind, input: info.ids[info.ids.length - 1]! },
    id: { pair: "teamId or userId" },
    listing: {
      path: (ids) => permissionsPath(info.target(ids as Record<Ids, string>)),
      list: (ctx, parent) => grantsOn(ctx, parent),
      unmanaged: true,
    },
    imported: {
      word: "grant",
      ...(info.scope === "organization" ? { heading: `Roles granted on ${info.noun}s.` } : {}),
    },
    outputs: [],
    idFormat: `\`<${info.ids[info.ids.length - 1]}>/<teamId or userId>\``,
    importId: apiIdPair,
    replaceOnChanges,
    deleteBeforeReplace: true,

    async create(ctx, news) {
      const { grantee: kind, id } = granteeOf(news);
      // A failed create leaves no grant that no state records (the next `up` may declare another grantee).
      const created = { kind: info.kind, id: `${targetId(news)}/${id}` };
      const revoke = () => revokeGrant(ctx.client, info.target(news), kind, id);
      await undoIfActed(created, revoke, () => grant(ctx.client, info.target(news), kind, id, apiRole(news.role)));
      const state = await undoOnFailure(created, revoke, () => readBack(ctx, news));
      return { id: created.id, state };
    },

    async read(ctx, id, known) {
      const [target, granteeId] = id.split("/");
      // The id names the target and grantee; the inputs or state say which target path and grantee type to list.
      if (target !== targetId(known) || granteeId !== granteeOf(known).id) return undefined;
      const state = await find(ctx, known, false);
      return state && { id, state };
    },

    async update(ctx, _id, olds, news, changed) {
      for (const key of replaceOnChanges) {
        // Only reachable by adopting with an importId naming another grant than the inputs.
        if (changed.has(key))
          throw new Error(`${info.kind}: importId names ${key} "${olds[key]}", the inputs "${news[key]}"`);
      }
      const { grantee: kind, id } = granteeOf(news);
      // A grant's PATCH takes a role, not `null`: the grant call makes a guest.
      if (changed.has("role") && news.role === GUEST) await grant(ctx.client, info.target(news), kind, id, null);
      else if (changed.has("role")) await setGrantRole(ctx.client, info.target(news), kind, id, news.role);
      return readBack(ctx, news);
    },

    async delete(ctx, _id, olds) {
      const { grantee: kind, id } = granteeOf(olds);
      await revokeGrant(ctx.client, info.target(olds), kind, id);
      ctx.listings.invalidate(permissionsPath(info.target(olds)));
    },
  });
}
