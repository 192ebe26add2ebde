import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, upConsistent } from "./harness";

const example = path.resolve(__dirname, "../../examples/docs-site");

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs: Record<string, unknown>;
}

/**
 * The complete docs-site program of examples/ (the demo's), run as TypeScript by the real CLI against the emulator:
 * create, no-op preview, drift on three kinds detected and reverted, the cost of a refresh, and a clean destroy.
 */
describe("the complete docs site through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let fixtureState: string;

  const api = (method: string, apiPath: string, body?: unknown) => callApi(emulator, method, apiPath, body);
  /**
   * What a destroy must return the organization to: everything the program could have created, listed (a deleted
   * space, restorable for 7 days, is no longer listed).
   */
  const organizationContents = async () => {
    const lists = ["spaces", "sites", "collections", "teams", "saml", "openapi"];
    const contents: Record<string, unknown> = {};
    for (const list of lists) {
      const items = (await api("GET", `/orgs/${emulator.organizationId}/${list}?limit=1000`)).body.items as {
        id: string;
      }[];
      contents[list] = items.map((item) => item.id).sort();
    }
    return JSON.stringify(contents);
  };
  const resources = async (): Promise<StateResource[]> =>
    ((await stack.exportStack()).deployment.resources ?? []).filter((r: StateResource) =>
      r.type.startsWith("pulumi-nodejs:dynamic/docs:"),
    );
  const resource = async (name: string) => {
    const found = (await resources()).find((r) => r.urn.endsWith(`::${name}`));
    if (!found) throw new Error(`no resource named ${name} in the state`);
    return found;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "docs-site-e2e-token" });
    fixtureState = await organizationContents();
    const files = {
      "index.ts": readFileSync(path.join(example, "index.ts"), "utf8"),
      "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8"),
    };
    stack = await makeStack(await makeProject("docs-site", files, { typescript: true }), emulator);
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("a preview of the new platform plans every create, offline: unknown ids pass check, nothing is written", async () => {
    emulator.clearRequests();
    const preview = await stack.preview();
    expect(changes(preview.changeSummary)).toEqual({ create: 26 });
    expect(emulator.requests()).toEqual([]);
  });

  it("up creates the whole platform", async () => {
    const up = await upConsistent(stack);
    const created = await resources();
    expect(up.summary.resourceChanges?.create).toBe(created.length + 1);
    const kinds = new Set(created.map((r) => r.type.split(":").pop()));
    expect([...kinds].sort()).toEqual(
      [
        "Collection",
        "OpenApiSpec",
        "SamlProvider",
        "Site",
        "SiteAdaptiveSchema",
        "SiteCustomization",
        "SiteSection",
        "SiteRedirects",
        "SiteSectionGroup",
        "SiteShareLink",
        "SiteSpace",
        "SiteStructure",
        "SiteVisitorAuth",
        "Space",
        "Team",
        "TeamMember",
      ].sort(),
    );
    const site = await resource("docs");
    expect((await api("GET", `/orgs/${emulator.organizationId}/sites/${site.id}`)).body).toMatchObject({
      title: "Acme Docs",
      published: true,
    });
    const groups = (await api("GET", `/orgs/${emulator.organizationId}/sites/${site.id}/section-groups`)).body.items;
    expect(groups).toHaveLength(1);
    // The sections show the spaces the program created, not existing ones.
    const shown = [
      ["guides", "guides-space", "Guides"],
      ["api-reference", "api-space", "API reference"],
    ] as const;
    for (const [section, space, title] of shown) {
      const spaceId = (await resource(space)).id;
      expect((await resource(section)).outputs.spaceId).toBe(spaceId);
      expect(emulator.spaceIds).not.toContain(spaceId);
      expect((await api("GET", `/spaces/${spaceId}`)).body.title).toBe(title);
    }
    expect(up.outputs.reviewUrl?.secret).toBe(true);
    expect(up.outputs.openApiVersion?.value).toBeTruthy();
  });

  it("a second preview reports no changes", async () => {
    expect(changes((await stack.preview()).changeSummary)).toEqual({});
  });

  it("preview --refresh reports out-of-band changes to a section title, a share link and the SAML label, and up --refresh reverts them", async () => {
    const site = await resource("docs");
    const section = await resource("api-reference");
    const link = await resource("review-link");
    const saml = await resource("okta");
    const sites = `/orgs/${emulator.organizationId}/sites/${site.id}`;
    expect((await api("PATCH", `${sites}/sections/${section.id}`, { title: "Renamed by hand" })).status).toBe(200);
    expect((await api("PATCH", `${sites}/share-links/${link.id}`, { active: false })).status).toBe(200);
    expect((await api("PATCH", `/orgs/${emulator.organizationId}/saml/${saml.id}`, { label: "Edited" })).status).toBe(
      200,
    );

    await expect(stack.preview({ refresh: true, expectNoChanges: true })).rejects.toThrow();
    const preview = await stack.preview({ refresh: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 3 });

    const up = await upConsistent(stack, { refresh: true });
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 3 });
    const sections = (await api("GET", `${sites}/sections`)).body.items as { id: string; title: string }[];
    expect(sections.find((s) => s.id === section.id)?.title).toBe("API reference");
    const links = (await api("GET", `${sites}/share-links`)).body.items as { id: string; active: boolean }[];
    expect(links.find((l) => l.id === link.id)?.active).toBe(true);
    expect((await api("GET", `/orgs/${emulator.organizationId}/saml/${saml.id}`)).body.label).toBe("Okta");
  });

  it("a refresh makes at most one API request per resource", async () => {
    const count = (await resources()).length;
    emulator.clearRequests();
    await stack.refresh();
    const requests = emulator.requests();
    const perKind = new Map<string, number>();
    for (const request of requests) {
      const key = `${request.method} ${request.path.replace(/\/[A-Za-z0-9]{16,}/g, "/{id}")}`;
      perKind.set(key, (perKind.get(key) ?? 0) + 1);
    }
    console.log(
      `refresh: ${requests.length} API requests for ${count} resources\n` +
        [...perKind].map(([key, n]) => `  ${n} × ${key}`).join("\n"),
    );
    expect(requests.length).toBeLessThanOrEqual(count);
  });

  it("destroy returns the organization to its fixture state", async () => {
    await stack.destroy();
    expect(await organizationContents()).toBe(fixtureState);
  });
});
