import { CONFIG_KEYS, CONFIG_NAMESPACE, ENV_KEYS, type StackConfig } from "../framework/settings";
import { PACKAGE } from "../framework/typeTokens";

export type ProviderSettings = StackConfig;

/** A provider's settings: the stack config keys without their namespace, as a provider resource's inputs name them. */
export const PROVIDER_SETTINGS = Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[];

/** Inputs the engine adds to every provider's (pkg/resource/deploy/providers/registry.go). */
const ENGINE_INPUTS: ReadonlySet<string> = new Set(["version"]);

/**
 * Whether a provider resource is the stack's default provider, which the engine names `default` or
 * `default_<version>` (pkg/resource/deploy/providers/provider.go), and whose settings are the stack config.
 */
export function isDefaultProvider(name: string): boolean {
  return /^default(_\d+_\d+_\d+.*)?$/.test(name);
}

/**
 * What is wrong with a provider's config, for `checkConfig`: a key no setting has (a typo would otherwise be ignored
 * and the default used). `provider` is the provider resource's name, `default…` for the stack's default provider,
 * whose settings are stack config keys.
 */
export function providerConfigFailures(
  config: Record<string, unknown>,
  provider: string,
): { property: string; reason: string }[] {
  const known = PROVIDER_SETTINGS as string[];
  const isDefault = isDefaultProvider(provider);
  return Object.keys(config)
    .filter((key) => !known.includes(key) && !ENGINE_INPUTS.has(key))
    .map((key) => ({
      property: key,
      reason: isDefault
        ? `${CONFIG_NAMESPACE}:${key} is not a setting of the ${PACKAGE} provider; the settings are ` +
          `${PROVIDER_SETTINGS.map((name) => CONFIG_KEYS[name]).join(", ")} (environment: ` +
          `${PROVIDER_SETTINGS.map((name) => ENV_KEYS[name]).join(", ")}). Remove it with ` +
          `\`pulumi config rm ${CONFIG_NAMESPACE}:${key}\`.`
        : `${key} is not a setting of provider "${provider}"; its settings are ${known.join(", ")}.`,
    }));
}
