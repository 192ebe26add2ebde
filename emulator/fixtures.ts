/**
 * The deterministic fixtures every store starts from (and returns to on reset): two organizations, four users and
 * five spaces, with ids stable across resets and processes.
 */

import type { SpaceRec } from "./families/content/records";
import type { MemberRec, OrgRec, UserRec } from "./families/organization/records";
import { stableId } from "./ids";
import type { MemberRole } from "./validate";

export interface FixtureInfo {
  organizationId: string;
  secondOrganizationId: string;
  spaceIds: string[];
  secondOrganizationSpaceIds: string[];
  userIds: string[];
}

const FIXTURE_TIME = "2024-01-15T09:00:00.000Z";

function fixtureTime(minutes: number): string {
  return new Date(Date.parse(FIXTURE_TIME) + minutes * 60_000).toISOString();
}

/**
 * The tables the fixtures fill, as tables.ts's `Tables` has them. Declared here, not imported from tables.ts: the
 * tables load the fixtures, so this module must not depend on them in turn.
 */
export interface FixtureTables {
  readonly orgs: Map<string, OrgRec>;
  readonly users: Map<string, UserRec>;
  /** key `${orgId}/${userId}` */
  readonly members: Map<string, MemberRec>;
  readonly spaces: Map<string, SpaceRec>;
  nextPosition(): number;
}

/** Loads the fixtures into an empty store. */
export function loadFixtures(store: FixtureTables): FixtureInfo {
  const orgA: OrgRec = {
    id: stableId("org:acme"),
    title: "Acme Docs",
    hostname: "acme",
    createdAt: fixtureTime(0),
    emailDomains: ["example.com"],
    defaultRole: "read",
    inviteLinks: true,
  };
  const orgB: OrgRec = {
    id: stableId("org:globex"),
    title: "Globex Archive",
    hostname: "globex",
    createdAt: fixtureTime(5),
    emailDomains: ["globex.example.com"],
    defaultRole: null,
    inviteLinks: false,
  };
  store.orgs.set(orgA.id, orgA);
  store.orgs.set(orgB.id, orgB);

  const users: UserRec[] = [
    { id: stableId("user:ada"), displayName: "Ada Lovelace", email: "ada@example.com" },
    { id: stableId("user:grace"), displayName: "Grace Hopper", email: "grace@example.com" },
    { id: stableId("user:linus"), displayName: "Linus Torvalds", email: "linus@example.com" },
    { id: stableId("user:margaret"), displayName: "Margaret Hamilton", email: "margaret@globex.example.com" },
  ];
  for (const u of users) {
    u.photoURL = `https://avatars.gitbook.example/${u.id}.png`;
    store.users.set(u.id, u);
  }
  const [ada, grace, linus, margaret] = users as [UserRec, UserRec, UserRec, UserRec];
  const roleA: [UserRec, MemberRole][] = [
    [ada, "admin"],
    [grace, "create"],
    [linus, "read"],
  ];
  roleA.forEach(([u, role], i) => {
    store.members.set(`${orgA.id}/${u.id}`, {
      orgId: orgA.id,
      userId: u.id,
      role,
      joinedAt: fixtureTime(10 + i),
      lastSeenAt: fixtureTime(1000 + i),
      sso: false,
      disabled: false,
    });
  });
  const roleB: [UserRec, MemberRole][] = [
    [ada, "admin"],
    [margaret, "edit"],
  ];
  roleB.forEach(([u, role], i) => {
    store.members.set(`${orgB.id}/${u.id}`, {
      orgId: orgB.id,
      userId: u.id,
      role,
      joinedAt: fixtureTime(20 + i),
      lastSeenAt: fixtureTime(2000 + i),
      sso: false,
      disabled: false,
    });
  });

  const spaceDefs: [string, OrgRec, string, string][] = [
    ["space:product", orgA, "Product Guide", "1f4d8"],
    ["space:api", orgA, "API Reference", "1f527"],
    ["space:changelog", orgA, "Changelog", "1f4dd"],
    ["space:handbook", orgA, "Team Handbook", "1f4d2"],
    ["space:legacy", orgB, "Legacy Manual", "1f4da"],
  ];
  spaceDefs.forEach(([seed, org, title, emoji], i) => {
    const space: SpaceRec = {
      id: stableId(seed),
      orgId: org.id,
      title,
      emoji,
      visibility: "private",
      createdAt: fixtureTime(30 + i),
      updatedAt: fixtureTime(60 + i),
      revision: stableId(`${seed}:revision`),
      defaultLevel: "inherit",
      editMode: "live",
      position: store.nextPosition(),
    };
    store.spaces.set(space.id, space);
  });

  return {
    organizationId: orgA.id,
    secondOrganizationId: orgB.id,
    spaceIds: spaceDefs.filter((d) => d[1] === orgA).map((d) => stableId(d[0])),
    secondOrganizationSpaceIds: spaceDefs.filter((d) => d[1] === orgB).map((d) => stableId(d[0])),
    userIds: [ada.id, grace.id, linus.id],
  };
}
