export const repoRoot: string;
export const toolsDir: string;
export const binDir: string;
export const nodeModulesBinDir: string;
export const defaultPulumiHome: string;
export const stampFile: string;
export function toolchainVars(base?: NodeJS.ProcessEnv): {
  PATH: string;
  PULUMI_SKIP_UPDATE_CHECK: string;
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: string;
  PULUMI_HOME: string;
};
export function toolchainEnv(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function readStamp(): Record<string, unknown> | undefined;
