export interface ReleaseArtifact {
  name: string;
  /** The file in the release folder; undefined for what cannot be built here, with `why`. */
  file: string | undefined;
  publishedTo: string;
  why?: string;
}
export function packageVersion(): string;
export function goModulePath(): string;
export function releaseArtifacts(version: string): ReleaseArtifact[];
export const PLUGIN_PLATFORMS: string[];
