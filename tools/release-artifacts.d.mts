export interface ReleaseArtifact {
  name: string;
  /** The file in the release folder. */
  file: string;
  publishedTo: string;
  /** A tool the build needs: without it on the PATH the dry run lists the artifact as not built, saying `why`. */
  needs?: string;
  why?: string;
}
export function packageVersion(): string;
export function goModulePath(): string;
export function releaseArtifacts(version: string): ReleaseArtifact[];
export const PLUGIN_PLATFORMS: string[];
