import * as pulumi from "@pulumi/pulumi";

/**
 * The program's value of an input its kind marks sensitive (`.meta(SENSITIVE)`), made a Pulumi secret however the
 * program gives it: plain (`process.env.MCP_KEY`), from plain config, a promise or an Output. A schema'd provider's
 * generated SDK does the same for its `secret: true` inputs; without it a plain value is stored in plain text in the
 * resource's inputs, since `additionalSecretOutputs` marks only the outputs. The engine compares secret and plain
 * values by value, so a state written before holds no diff for it.
 *
 * A value that resolves to `undefined` (or `null`) stays plain: a secret wrapping nothing would reach the provider as
 * a secret `null`, an input the program never gave, and show as a `[secret]` change.
 */
export function secretInput(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return pulumi
    .output(value)
    .apply((resolved) => (resolved === undefined || resolved === null ? resolved : pulumi.secret(resolved)));
}

/** `props` with each of the `sensitive` properties it has made a secret by `secretInput`. */
export function withSecretInputs(props: Record<string, unknown>, sensitive: Iterable<string>): Record<string, unknown> {
  const out = { ...props };
  for (const key of sensitive) {
    if (key in out) out[key] = secretInput(out[key]);
  }
  return out;
}
