import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { describe, expect, it } from "vitest";

/**
 * One version: package.json's drives the plugin's GetPluginInfo, the schema, each SDK, the plugin tarball's name and
 * the CHANGELOG's newest release heading. A release bumps package.json and `npm run docs` carries the rest; this test
 * fails on whatever was left behind, naming it.
 */
const repoRoot = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const { version } = JSON.parse(read("package.json")) as { version: string };

describe(`every artifact carries the package version (${version})`, () => {
  const carried: Record<string, string | undefined> = {
    "provider/plugin/schema.json version": JSON.parse(read("provider/plugin/schema.json")).version,
    "sdk/python/pyproject.toml version": /^\s*version = "([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))?.[1],
    "sdk/python/pulumi_docs/pulumi-plugin.json version": JSON.parse(read("sdk/python/pulumi_docs/pulumi-plugin.json"))
      .version,
    "sdk/go/docs/pulumi-plugin.json version": JSON.parse(read("sdk/go/docs/pulumi-plugin.json")).version,
    "CHANGELOG.md's newest release heading": /^## \[(\d[^\]]*)\]/m.exec(read("CHANGELOG.md"))?.[1],
  };
  for (const [where, found] of Object.entries(carried)) {
    it(where, () => expect(found, `${where} says ${found}, package.json ${version}`).toBe(version));
  }

  it("the plugin tarball's name and the schema's pluginDownloadURL, as the release workflow uploads it", async () => {
    const { releaseArtifacts } = await import("../../tools/release-artifacts.mjs");
    const plugin = releaseArtifacts(version).find((artifact) => artifact.name === "provider plugin")!;
    expect(plugin.file).toBe(`pulumi-resource-docs-v${version}.tar.gz`);
    const schema = JSON.parse(read("provider/plugin/schema.json"));
    const sdkPlugin = JSON.parse(read("sdk/python/pulumi_docs/pulumi-plugin.json"));
    expect(schema.pluginDownloadURL).toMatch(/^github:\/\/api\.github\.com\/[^/]+\/[^/]+$/);
    expect(sdkPlugin.server).toBe(schema.pluginDownloadURL);
  });

  it("the built plugin answers GetPluginInfo with it", async () => {
    const main = path.join(repoRoot, "dist/provider/plugin/main.js");
    expect(existsSync(main), "the built plugin: `npm test` builds it first (or `npm run build`)").toBe(true);
    // Started by hand, with no engine: it serves until stopped and prints its port first.
    const child = spawn(process.execPath, [main], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once("exit", (code) => reject(new Error(`the plugin exited ${code}`)));
      });
      const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const info = await new Promise<PluginInfo>((resolve, reject) =>
        client.getPluginInfo(new Empty(), (error, response) => (error ? reject(error) : resolve(response))),
      );
      client.close();
      expect(info.getVersion()).toBe(version);
    } finally {
      child.kill();
    }
  });
});
