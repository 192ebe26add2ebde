import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

/** The rows of the emulator README's "Request bodies" table: method, path template and body, in order. */
function documentedBodies(): { method: string; path: string; body: string }[] {
  const readme = readFileSync(path.join(__dirname, "../../emulator/README.md"), "utf8");
  const section = readme.split("## Request bodies, one per route family")[1]?.split("\n## ")[0] ?? "";
  return [...section.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)`[^|]*\| `([^`]+)`/gm)].map((row) => ({
    method: row[1] as string,
    path: row[2] as string,
    body: row[3] as string,
  }));
}

/** Which placeholder an answer's id fills, by the path that made it. */
const MADE: [pattern: RegExp, placeholder: string][] = [
  [/\/collections$/, "c"],
  [/\/sites$/, "S"],
  [/\/sections$/, "sectionId"],
  [/\/section-groups$/, "groupId"],
  [/\/teams$/, "t"],
  [/\/installations$/, "installationId"],
  [/\/translations$/, "translationId"],
];

describe("the emulator README's request bodies", () => {
  it("are accepted as written, in order, each with a 2xx", async () => {
    const rows = documentedBodies();
    expect(rows.length).toBeGreaterThanOrEqual(19);
    const [space, otherSpace] = h.emulator.spaceIds;
    const ids: Record<string, string> = {
      O: h.org(),
      s: space as string,
      spaceId: space as string,
      u: h.user(1),
      userId: h.user(1),
    };
    const fill = (text: string) =>
      text.replace(/\{(\w+)\}|<(\w+)>/g, (whole, brace?: string, angle?: string) => {
        const key = brace ?? angle ?? "";
        const alias = key === "id" ? "sectionId" : key === "collectionId" ? "c" : key === "teamId" ? "t" : key;
        const value = ids[alias];
        if (value === undefined) throw new Error(`no id for ${whole} yet`);
        return value;
      });
    for (const row of rows) {
      const apiPath = fill(row.path.replace("…", "/orgs/{O}"));
      const answer = await h.call(row.method, apiPath, JSON.parse(fill(row.body)));
      expect(answer.status, `${row.method} ${apiPath}: ${answer.text}`).toBeGreaterThanOrEqual(200);
      expect(answer.status, `${row.method} ${apiPath}: ${answer.text}`).toBeLessThan(300);
      const made = MADE.find(([pattern]) => pattern.test(apiPath) && row.method !== "PATCH");
      if (made) ids[made[1]] = answer.body.id;
      // The second site space of the table shows another space than the section's own.
      if (row.path.endsWith("/sections")) ids.spaceId = otherSpace as string;
    }
    // Each accepted write left one audit event naming its object (Git Sync installations name no organization).
    const events = await h.listAll(`/orgs/${h.org()}/audit-events`, 100);
    const writes = rows.filter((row) => row.method !== "GET" && !row.path.startsWith("/git/"));
    expect(events).toHaveLength(writes.length);
    for (const event of events) {
      expect(event.target.id, JSON.stringify(event)).toMatch(/^\S+$/);
      expect(event).toMatchObject({ source: "api", actor: { id: h.user(0) } });
    }
  });
});
