import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, upConsistent } from "./harness";

const example = path.resolve(__dirname, "../../examples/access/index.ts");

interface Member {
  id: string;
  role: string | null;
  sso: boolean;
  teams: number;
}

/**
 * examples/access as a user runs it, through the real CLI: apply it, change a grant's role and a member's role by hand,
 * see both in `preview --refresh`, put them back with `up --refresh`, then hand the organization back (declare the old
 * settings and role, `up`) and destroy: the organization's settings and members are as they were before.
 */
describe("examples/access through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  /** Ada (admin, the token's user), Grace (create), Linus (read). */
  const user = (i: number) => () => emulator.userIds[i]!;
  const [ada, grace, linus] = [user(0), user(1), user(2)];
  const api = async (method: string, apiPath: string, body?: unknown) => {
    const answer = await callApi(emulator, method, apiPath, body);
    expect(answer.status, `${method} ${apiPath}`).toBeLessThan(300);
    return answer.body as Record<string, unknown>;
  };
  const output = async (name: string) => (await stack.outputs())[name]?.value as string;
  /** The writers' role on the handbook, from the space's listing of team grants. */
  const grantRole = async () => {
    const listing = await api("GET", `/spaces/${await output("handbookSpaceId")}/permissions/teams`);
    const items = listing.items as { permission: string; team: { id: string } }[];
    return items.find((item) => item.team.id === writersTeam)?.permission;
  };
  let writersTeam = "";
  const memberRole = async (userId: string) =>
    (await api("GET", `/orgs/${emulator.organizationId}/members/${userId}`)).role;
  /** Every setting the official document lets a PATCH change. */
  const settings = async () => {
    const { title, emailDomains, hostname, defaultRole, defaultContent, sso, ai, inviteLinks, urls } = await api(
      "GET",
      `/orgs/${emulator.organizationId}`,
    );
    return { title, emailDomains, hostname, defaultRole, defaultContent, sso, ai, inviteLinks, urls };
  };
  const members = async () =>
    ((await api("GET", `/orgs/${emulator.organizationId}/members?limit=1000`)).items as Member[]).map(
      ({ id, role, sso, teams }) => ({
        id,
        role,
        sso,
        teams,
      }),
    );

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    const dir = await makeProject("access", { "index.ts": readFileSync(example, "utf8") }, { typescript: true });
    stack = await makeStack(dir, emulator);
    stack.workspace.envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    // The lead is Linus (a reader), the writer Grace, the engineer Ada.
    await stack.setConfig("userIds", { value: JSON.stringify([linus(), grace(), ada()]) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("applies the access example, sees a grant and a member role changed by hand, reverts them, and destroys", async () => {
    const settingsBefore = await settings();
    const membersBefore = await members();
    expect(settingsBefore.sso).toBe(false);
    expect(await memberRole(linus())).toBe("read");

    await upConsistent(stack);
    expect(await settings()).toEqual({ ...settingsBefore, sso: true });
    expect(await memberRole(linus())).toBe("admin");
    writersTeam = await output("writersTeamId");
    expect(await grantRole()).toBe("edit");

    // By hand, in the web app: the writers get only read access to the handbook, and the lead becomes a commenter.
    const grantPath = `/spaces/${await output("handbookSpaceId")}/permissions/teams/${await output("writersTeamId")}`;
    await api("PATCH", grantPath, { role: "read" });
    await api("PATCH", `/orgs/${emulator.organizationId}/members/${linus()}`, { role: "comment" });

    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 2 });
    // The output has one block per resource step (the refresh's, then the update's), each naming its URN.
    const update = (name: string) =>
      preview.stdout
        .split(/\n(?= {4}[~+-] )/)
        .find((block) => block.includes(": (update)") && block.includes(`::${name}]`)) ?? "";
    expect(update("writers-edit-handbook")).toMatch(/SpacePermission: \(update\)[\s\S]*~ role\s*: "read" => "edit"/);
    expect(update("lead")).toMatch(/OrganizationMember: \(update\)[\s\S]*~ role\s*: "comment" => "admin"/);

    const up = await upConsistent(stack, { refresh: true });
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 2 });
    expect(await grantRole()).toBe("edit");
    expect(await memberRole(linus())).toBe("admin");

    // Hand the organization back: declare the old values, apply them, then destroy.
    await stack.setConfig("enforceSso", { value: "false" });
    await stack.setConfig("leadRole", { value: "read" });
    const handBack = await upConsistent(stack);
    expect(changes(handBack.summary.resourceChanges)).toEqual({ update: 2 });
    const destroy = await stack.destroy();
    expect(destroy.stdout).toContain("the organization and its settings are left as they are");
    expect(destroy.stdout).toContain("stays a member of the organization with role");

    expect(await settings()).toEqual(settingsBefore);
    expect(await members()).toEqual(membersBefore);
    for (const list of ["sites", "collections", "teams", "saml"]) {
      expect((await api("GET", `/orgs/${emulator.organizationId}/${list}`)).items, list).toEqual([]);
    }
  });
});
