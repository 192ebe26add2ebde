/**
 * Pulumi's wire form of a secret: an object holding the secret signature and the value. The plugin answers
 * `acceptSecrets: false`, so the engine sends plain values to check, diff and the CRUD calls and marks secret again
 * what it finds at a secret input's path. It does not do that for outputs the program never gave (a share link's URL,
 * an imported object's fields) nor for the provider's own config, so those are wrapped here.
 */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

export type WireSecret = { [SIGNATURE_KEY]: typeof SECRET_SIGNATURE; value: unknown };

export function asSecret(value: unknown): WireSecret {
  return { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

export function isSecret(value: unknown): value is WireSecret {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)[SIGNATURE_KEY] === SECRET_SIGNATURE
  );
}

/** The value with every secret, at any depth, replaced by what it holds (configure's args always come wrapped). */
export function revealed(value: unknown): unknown {
  if (isSecret(value)) return revealed(value.value);
  if (Array.isArray(value)) return value.map(revealed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revealed(item)]));
  }
  return value;
}

/** `props` with the named properties wrapped as secrets; absent and `null` values stay as they are. */
export function withSecrets(props: Record<string, unknown>, secretKeys: Iterable<string>): Record<string, unknown> {
  const out = { ...props };
  for (const key of secretKeys) {
    if (out[key] !== undefined && out[key] !== null) out[key] = asSecret(out[key]);
  }
  return out;
}
