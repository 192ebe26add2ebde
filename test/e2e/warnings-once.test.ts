import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack, runPulumi } from "./harness";

/**
 * A warning about a pair of resources (a share link on a public site) is printed once per operation: one progress
 * line and one line under Diagnostics, on both routes. On the plugin route it used to be attached to the link, and
 * the CLI reprints a resource's last message at each change of its progress line: three times in an `up`.
 */
const yamlProgram = `name: warnings-yaml
runtime: yaml
plugins:
  providers:
    - name: docs
      path: node_modules/.bin
resources:
  site:
    type: docs:Site
    properties:
      title: Public Docs
      visibility: public
  link:
    type: docs:SiteShareLink
    properties:
      siteId: \${site.id}
      name: Reviewers
`;
const jsProgram = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const site = new docs.Site("site", { title: "Public Docs", visibility: "public" });
new docs.SiteShareLink("link", { siteId: site.id, name: "Reviewers" });
`;
const WARNING = 'SiteShareLink "Reviewers" targets Site';

const routes: { route: string; files: Record<string, string> }[] = [
  { route: "plugin (YAML)", files: { "Pulumi.yaml": yamlProgram } },
  { route: "dynamic", files: { "index.js": jsProgram } },
];

describe.each(routes)("the share link warning on the $route route", ({ route, files }) => {
  let emulator: RunningEmulator;
  let stack: Awaited<ReturnType<typeof makeStack>>;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    const name = route === "dynamic" ? "warnings-dynamic" : "warnings-yaml";
    stack = await makeStack(await makeProject(name, files), emulator);
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("is printed once in progress and once in Diagnostics, by up and by preview", async () => {
    for (const args of [["up", "--yes"], ["preview"]]) {
      const run = await runPulumi(stack, args);
      expect(run.code, run.output).toBe(0);
      const lines = run.output.split("\n").filter((line) => line.includes(WARNING));
      expect(lines, `${args.join(" ")}:\n${run.output}`).toHaveLength(2);
      const diagnostics = run.output.slice(run.output.indexOf("Diagnostics:"));
      expect(diagnostics.split("\n").filter((line) => line.includes(WARNING))).toHaveLength(1);
    }
  });
});
