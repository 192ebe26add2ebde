/** SiteRedirects: the error naming the rules the API refused, and a read by an id that is not the site's. */
import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created } from "../support/lifecycle";

const fixture = useEmulator();
const redirectsPath = (site: string) => `/orgs/${fixture.org()}/sites/${site}/redirects`;

const working = (source: string) => ({
  source,
  destination: { kind: "external", url: `https://new.example${source}` },
});
/** A rule the API refuses: its destination names a section the site does not have. */
const refused = (source: string) => ({ source, destination: { kind: "site-section", siteSectionId: "missing" } });

async function createError(siteId: string, redirects: unknown[]): Promise<string> {
  const inputs = await checked("SiteRedirects", { organizationId: fixture.org(), siteId, redirects });
  const error = await lifecycle("SiteRedirects")
    .create(inputs)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

/** The emulator's refusal of `refused(source)`, as the error quotes it (a regular expression). */
const apiRefusal = (source: string, siteId: string) =>
  `"${source}": redirects\\[\\d+\\]\\.destination\\.siteSectionId: no section "missing" in site "${siteId}"`;

/** The `"<source>": <the API's error>` parts of the error, in order. */
const refusals = (message: string) => [...message.matchAll(/"(\/[^"]*)": [^;)]*/g)].map((match) => match[1]);

describe("SiteRedirects: the rules the API refused", () => {
  it("names the one refused rule with the API's reason, and nothing more", async () => {
    const siteId = await fixture.makeSite();
    const message = await createError(siteId, [working("/ok"), refused("/bad")]);
    expect(message).toMatch(
      new RegExp(
        `^SiteRedirects "${siteId}": the API refused 1 of 2 redirect operations \\(${apiRefusal("/bad", siteId)}\\); ` +
          "the others were applied\\. Fix these redirects and run `pulumi up` again\\.$",
      ),
    );
  });

  it("names each refused rule, separated, and counts those past the tenth", async () => {
    const siteId = await fixture.makeSite();
    const bad = Array.from({ length: 12 }, (_, i) => refused(`/bad-${String(i).padStart(2, "0")}`));
    const message = await createError(siteId, [working("/ok"), ...bad]);
    expect(message).toContain("the API refused 12 of 13 redirect operations (");
    expect(refusals(message)).toEqual(bad.slice(0, 10).map((rule) => rule.source));
    const listed = /operations \((.*)\); the others were applied\./.exec(message)?.[1] ?? "";
    expect(listed.split("; ")).toHaveLength(10);
    expect(listed).toMatch(/, and 2 more$/);
    expect((await fixture.listAll(redirectsPath(siteId))).map((r) => r.source)).toEqual(["/ok"]);
  });

  it("names two refused rules apart, without a count", async () => {
    const siteId = await fixture.makeSite();
    const message = await createError(siteId, [refused("/a"), refused("/b")]);
    expect(refusals(message)).toEqual(["/a", "/b"]);
    expect(message).toMatch(
      new RegExp(`operations \\(${apiRefusal("/a", siteId)}; ${apiRefusal("/b", siteId)}\\); the others were applied`),
    );
  });
});

describe("SiteRedirects read", () => {
  it("reads a resource whose id is not its site's as gone", async () => {
    const siteId = await fixture.makeSite();
    const { id, state } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId,
      redirects: [working("/a")],
    });
    expect(id).toBe(siteId);
    expect((await lifecycle("SiteRedirects").read(await fixture.makeSite({ title: "Other" }), state)).id).toBe("");
  });
});
