// `npm pack` of this checkout's build into a folder of its own: the package exactly as users install it. Used by
// `npm run pack:local` (tools/pack-local.mjs) and the bench (bench/run.mts).
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./toolchain.mjs";

/** Empties `destination`, packs into it and returns the tarball's path, renamed to `fileName` when given. */
export async function packPackage(destination, fileName) {
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  await promisify(execFile)("npm", ["pack", "--silent", "--pack-destination", destination], { cwd: repoRoot });
  const tarball = readdirSync(destination).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack produced no tarball");
  if (!fileName) return path.join(destination, tarball);
  renameSync(path.join(destination, tarball), path.join(destination, fileName));
  return path.join(destination, fileName);
}
