import { z } from "zod";
import {
  type ApiMember,
  getMember,
  listOrganizationMembers,
  organizationMembersPath,
  removeMember,
  setMemberSso,
  updateMemberRole,
} from "../client";
import { apiId, apiIdPair, defineKind, idRef } from "../framework/kind";
import { logLine } from "../framework/log";
import { ROLES } from "./common";

const inputs = z.strictObject({
  organizationId: apiId.describe("The organization the user is a member of."),
  userId: idRef("OrganizationMember").describe(
    "The member's user id. They must already be a member: people join by invitation or SSO, not through this resource.",
  ),
  role: z
    .enum(ROLES)
    .nullable()
    .optional()
    .describe("The member's role in the organization; `null` makes them a guest (access only to what is shared)."),
  sso: z
    .literal(true)
    .optional()
    .describe(
      "`true` lets the member log in with the organization's SSO. One way: the official document has no call that " +
        "takes it back, so `false` is not accepted.",
    ),
  removeOnDelete: z
    .boolean()
    .default(false)
    .describe(
      "Whether deleting the resource removes the user from the organization. `false` (the default) leaves the member " +
        "as they are, role included.",
    ),
  allowReplace: z
    .boolean()
    .optional()
    .describe(
      "Lets a change of `organizationId` or `userId` replace the resource while `removeOnDelete` is `true` (which " +
        "removes the old user from the organization); without it, such a change fails at preview. Never sent to the API.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  userId: z.string(),
  role: z.string().nullable().default(null),
  sso: z.boolean().default(false),
  removeOnDelete: z.boolean().default(false),
  allowReplace: z.boolean().optional(),
  email: z.string().nullable().default(null).describe("The member's email address, as the API reports it."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** Organization and user ids never contain a slash, so the pair makes an unambiguous resource id. */
const idOf = (organizationId: string, userId: string) => `${organizationId}/${userId}`;

function parseId(id: string): { organizationId: string; userId: string } | undefined {
  const [organizationId, userId, ...rest] = id.split("/");
  return organizationId && userId && rest.length === 0 ? { organizationId, userId } : undefined;
}

function toState(organizationId: string, member: ApiMember, removeOnDelete: boolean): State {
  return {
    organizationId,
    userId: member.id,
    role: member.role ?? null,
    sso: member.sso,
    removeOnDelete,
    email: member.user.email ?? null,
  };
}

/** How a member is named in programs and reports: display name, else the e-mail's local part, else the id. */
export function memberName(user: { id: string; displayName?: string; email?: string }): string {
  return user.displayName || user.email?.split("@")[0] || user.id;
}

export const organizationMemberKind = defineKind<Inputs, State>({
  kind: "OrganizationMember",
  docs: {
    description:
      "The role (and SSO login) of an existing member of an organization. Members join by invitation or SSO; this " +
      "resource never adds anyone, and removes someone only when asked to with `removeOnDelete: true`.",
    adoption:
      "Not needed: create takes over the existing membership `organizationId` and `userId` name, and writes only the " +
      'declared fields that differ — nothing when they match. An `importId` must be `"<organizationId>/<userId>"` of ' +
      "the same pair.",
    notes: [
      "- Create reads `GET /orgs/{organizationId}/members/{userId}` and fails, saying so, when the user is not a member.",
      "- `role` is changed in place (`PATCH …/members/{userId}`); `sso: true` through `POST …/members/{userId}/sso`. " +
        "A role or SSO login changed by hand is drift, seen by `pulumi preview --refresh`.",
      "- **Delete resets nothing** by default: the member keeps their role and access, and the log line says so. With " +
        "`removeOnDelete: true`, delete removes the user from the organization (`DELETE …/members/{userId}`), with " +
        "their team memberships and the access granted to them; they need a new invitation to come back. If the " +
        "token's user may not remove members, the API sends a removal request to the organization's administrators " +
        "instead, and the log line says that.",
      "- A change of `organizationId` or `userId` replaces the resource. While the old inputs have " +
        "`removeOnDelete: true`, that replacement would remove the old user, so it fails at preview unless " +
        "`allowReplace: true` is set.",
      "- `removeOnDelete` is stored with the resource: a change of it alone is an update that writes nothing to the API.",
    ],
    example: `new docs.OrganizationMember("grace", { organizationId, userId: graceUserId, role: "admin", sso: true });`,
  },
  scope: "organization",
  inputs,
  state,
  id: { pair: "userId" },
  listing: {
    path: ({ organizationId }) => organizationMembersPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      // The same listing as a team's members by email: this package never writes organization members.
      const load = () => listOrganizationMembers(ctx.client, org);
      const all = await ctx.listings.get(organizationMembersPath(org), load, { survivesWrites: true });
      return all.map((m) => ({
        id: `${org}/${m.user.id}`,
        title: memberName(m.user),
        known: { organizationId: org, userId: m.user.id },
        item: m,
      }));
    },
    // Inputs name a member by user id (`userId`), not by this kind's `<organizationId>/<userId>`.
    referredToAs: "userId",
    noun: "member of the organization",
    unmanaged: false,
  },
  imported: {
    never: "members join and leave by invitation and SSO, outside the program; declare those whose role it should hold",
  },
  outputs: ["email"],
  idFormat: "`<organizationId>/<userId>`",
  importId: apiIdPair,
  programRules: {
    uniqueBy: ["organizationId", "userId"],
  },
  adoptsOnCreate: {
    id: (news) => idOf(news.organizationId, news.userId),
    missing:
      "the user is not a member of the organization. Members join by invitation or SSO; invite them first (or fix " +
      "userId), then run `pulumi up` again.",
  },
  replaceOnChanges: ["organizationId", "userId"],
  providerOptions: ["allowReplace"],
  guardedReplaces: {
    properties: ["organizationId", "userId"],
    why: "the replaced resource's delete removes the old user from the organization (removeOnDelete: true).",
    when: (olds) => olds.removeOnDelete === true,
  },

  async read({ client }, id, known) {
    const ids = parseId(id);
    if (!ids) return undefined;
    const member = await getMember(client, ids.organizationId, ids.userId);
    return { id, state: toState(ids.organizationId, member, known.removeOnDelete === true) };
  },

  async update({ client }, _id, olds, news, changed) {
    // Only reachable by an importId naming another membership than organizationId/userId (a declared change replaces).
    for (const key of ["organizationId", "userId"] as const) {
      if (changed.has(key)) {
        throw new Error(`OrganizationMember: importId names ${key} "${olds[key]}", the inputs "${news[key]}"`);
      }
    }
    let member: ApiMember | undefined;
    if (changed.has("role") && news.role !== undefined) {
      member = await updateMemberRole(client, olds.organizationId, olds.userId, news.role);
    }
    if (changed.has("sso") && news.sso === true) member = await setMemberSso(client, olds.organizationId, olds.userId);
    const state = member ? toState(olds.organizationId, member, news.removeOnDelete) : undefined;
    return state ?? { ...olds, removeOnDelete: news.removeOnDelete };
  },

  async delete({ client }, id, olds) {
    if (!olds.removeOnDelete) {
      logLine(
        "info",
        `OrganizationMember "${id}": ${olds.email ?? olds.userId} stays a member of the organization with role ` +
          `${JSON.stringify(olds.role)} (removeOnDelete is false: nothing is reset).`,
      );
      return;
    }
    const outcome = await removeMember(client, olds.organizationId, olds.userId);
    logLine(
      "warn",
      outcome === "removed"
        ? `OrganizationMember "${id}": ${olds.email ?? olds.userId} was removed from the organization ` +
            "(removeOnDelete: true), with their team memberships and grants; they need a new invitation to come back."
        : `OrganizationMember "${id}": the token's user may not remove members, so the API sent a removal request ` +
            "for " +
            `${olds.email ?? olds.userId} to the organization's administrators; they stay a member until one accepts it.`,
    );
  },
});
