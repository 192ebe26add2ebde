import type { Props } from "./kind";
import type { CheckFailure } from "./lifecycleResults";
import { CONFIG_KEYS, defaultOrganizationId, ENV_KEYS, settingFix } from "./settings";

/**
 * Inputs a program may leave out because the provider has a default for them, as `aws:region` works. `check` fills
 * them in, so the resolved value is an input in the state like any other: changing the default is a visible diff of
 * every resource that relied on it, never a silent move.
 */
const PROVIDER_DEFAULTS = {
  organizationId: {
    resolve: defaultOrganizationId,
    config: CONFIG_KEYS.organizationId,
    env: ENV_KEYS.organizationId,
  },
} as const;

/**
 * Where the default of an input comes from, for the generated argument types (where such an input is optional) and
 * the reference; undefined for an input without a provider default.
 */
export function providerDefaultOf(input: string): { config: string; env: string } | undefined {
  const setting = (PROVIDER_DEFAULTS as Record<string, { config: string; env: string }>)[input];
  return setting ? { config: setting.config, env: setting.env } : undefined;
}

export interface DefaultedInputs {
  /** The program's inputs with every defaulted input it left undefined filled in. */
  news: Props;
  /** One per defaulted input that is undefined and has no default: it names the input and both settings. */
  failures: CheckFailure[];
}

/** Fills the inputs of a kind (`inputKeys`: its input schema's properties) that the program left undefined. */
export function applyProviderDefaults(kind: string, inputKeys: readonly string[], news: Props): DefaultedInputs {
  const filled: Props = { ...news };
  const failures: CheckFailure[] = [];
  for (const [key, setting] of Object.entries(PROVIDER_DEFAULTS)) {
    if (!inputKeys.includes(key) || news[key] !== undefined) continue;
    const value = setting.resolve();
    if (value !== undefined) {
      filled[key] = value;
      continue;
    }
    failures.push({
      property: key,
      reason:
        `${kind}.${key}: not set and no default: pass ${key} to the resource, or set a default for the stack with ` +
        `${settingFix(key as keyof typeof PROVIDER_DEFAULTS, "<id>")} or the ${setting.env} environment variable.`,
    });
  }
  return { news: filled, failures };
}
