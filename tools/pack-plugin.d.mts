/** Builds the `docs` plugin tarball (`pulumi-resource-docs-v<version>.tar.gz`) into `destination` (default .tools/pack) and returns its path. */
export function packPlugin(destination?: string): Promise<string>;
