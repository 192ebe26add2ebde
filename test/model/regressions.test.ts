/**
 * The shrunk cases of ./convergence.test.ts that found bugs, each replayed as it was found (./model.ts `replay`: the
 * commands, then a final refresh where needed, `up` and destroy with faults off, and every invariant).
 */
import { expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked } from "../support/lifecycle";
import { captureLog, captureStderr } from "../support/log";
import { Declare, Destroy, Fault, Remove, replay, Up } from "./model";

const fixture = useEmulator();
captureLog();
captureStderr();

it("a create whose answer was lost, and whose object could not be read back, leaves no object behind", async () => {
  // Found as: fault("lost", "GET", 1, 1), fault("lost", undefined, 0, 8), declare("collectionA", 0), up(false),
  // destroy(). The create's POST lost its answer, the lookup found the one collection it made, and reading that back
  // failed: the create failed and left the collection, which no state recorded, so the next `up` made a second one.
  // Here only the read-back fails, so that the undo can remove the collection.
  const real = await replay(fixture.emulator, [
    new Declare("collectionA", 0),
    new Fault("lost", "POST", 0, 1),
    new Fault("503", "GET", 1, 8),
    new Up(false),
    new Destroy(),
  ]);
  expect(real.log.find((line) => line.startsWith("up(false)"))).toMatch(
    /Collection "\w+" \("Handbook"\) was removed again/,
  );
});

it("a team member whose create could not read it back is removed again", async () => {
  // Found as: fault("lost", "GET", 0, 8), declare("memberA", 0), up(false), declare("memberA", 2), up(false). The PUT
  // made the membership, reading it back failed, and the create failed leaving it: once the program declared another
  // user, the first one stayed a member of the team.
  const real = await replay(fixture.emulator, [
    new Fault("lost", "GET", 0, 8),
    new Declare("memberA", 0),
    new Up(false),
    new Declare("memberA", 2),
    new Up(false),
  ]);
  expect(real.log.find((line) => line.startsWith("up(false)"))).toMatch(/TeamMember "[\w/]+" was removed again/);
});

it("a grant whose create could not read it back is revoked again", async () => {
  // The same as a team member's, on a space: the grant stayed after the program stopped declaring it.
  const real = await replay(fixture.emulator, [
    new Declare("spaceA", 2),
    new Up(false),
    new Declare("grantSpaceA", 2),
    new Fault("lost", "GET", 0, 8),
    new Up(false),
    new Remove("grantSpaceA"),
    new Up(false),
  ]);
  expect(real.log.find((line) => line.includes("SpacePermission create"))).toMatch(
    /SpacePermission "[\w/]+" was removed again/,
  );
});

it("a grant whose every answer was lost is revoked again", async () => {
  // Found as: fault("lost", "POST", 0, 8), declare("grantSpaceA", 0), up(false), remove("grantSpaceA"), up(false).
  // The API granted the role each time the client sent it, every answer was lost, and the failed create left the
  // grant, which stayed after the program stopped declaring it.
  const real = await replay(fixture.emulator, [
    new Declare("grantSpaceA", 0),
    new Up(false),
    new Remove("grantSpaceA"),
    new Up(false),
    new Declare("grantSpaceA", 0),
    new Fault("lost", "POST", 0, 8),
    new Up(false),
    new Remove("grantSpaceA"),
    new Up(false),
  ]);
  expect(real.log.find((line) => line.includes("SpacePermission create"))).toMatch(
    /SpacePermission "[\w/]+" was removed again/,
  );
});

it("a team member whose every answer was lost is removed again", async () => {
  // The same for the PUT that adds a team member.
  const real = await replay(fixture.emulator, [
    new Declare("teamA", 0),
    new Up(false),
    new Declare("memberA", 0),
    new Fault("lost", "PUT", 0, 8),
    new Up(false),
    new Declare("memberA", 2),
    new Up(false),
  ]);
  expect(real.log.find((line) => line.includes("TeamMember create"))).toMatch(/TeamMember "[\w/]+" was removed again/);
});

it("a grant or a member the API refused is not undone: nothing was written", async () => {
  for (const [kind, inputs, path] of [
    ["SpacePermission", { spaceId: fixture.space(0), userId: fixture.user(1), role: "read" }, "/permissions$"],
    [
      "TeamMember",
      { organizationId: fixture.org(), teamId: await fixture.makeTeam("Writers"), userId: fixture.user(1) },
      "/members/",
    ],
  ] as const) {
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ path, status: 400 });
    await expect(lifecycle(kind).create(await checked(kind, inputs))).rejects.toThrow(/400/);
    expect(fixture.writes().map((r) => r.method)).toEqual([kind === "TeamMember" ? "PUT" : "POST"]);
  }
});

it("a section group whose sections could not be sorted is removed again", async () => {
  // Found as: declare("groupA", 1), fault("lost", "GET", 0, 3), up(false). The group was made with its sections, then
  // reading the site's structure to sort them failed: the create failed and left the group, and the next `up` made a
  // second one.
  const real = await replay(fixture.emulator, [
    new Declare("groupA", 1),
    new Fault("lost", "GET", 0, 3),
    new Up(false),
  ]);
  expect(real.log.find((line) => line.includes("SiteSectionGroup create"))).toMatch(
    /SiteSectionGroup "\w+" \("Product"\) was removed again/,
  );
});

it.each(["dynamic", "plugin"] as const)(
  "a share link replaced in a run that fails later is deleted by the next up, on the %s route",
  async (route) => {
    // Found as: declare collectionA, up, declare linkA 2 (on siteB), declare installationOnSpace, fault("429", any, 3,
    // 1), fault("503", "POST", 5, 3), up, declare linkA 0 (on siteA: a replacement), declare translationA, up. The
    // link's replacement was made, then the Translation's create failed on 503s: the engine's stand-in dropped the old
    // link, which the engine keeps marked for deletion (pending delete), so it stayed in the organization for good.
    const real = await replay(
      fixture.emulator,
      [
        new Declare("collectionA", 0),
        new Up(false),
        new Declare("linkA", 2),
        new Declare("installationOnSpace", 0),
        new Fault("429", undefined, 3, 1),
        new Fault("503", "POST", 5, 3),
        new Up(false),
        new Declare("linkA", 0),
        new Declare("translationA", 0),
        new Up(false),
      ],
      route,
      true,
    );
    const log = real.log.join("\n");
    expect(log).toMatch(/^up\(false\) \(faults\): failed: Translation create: .* 503 /m);
    expect(log).toMatch(/^final up: ok .*\n {4}step: delete-replaced SiteShareLink /m);
  },
);
