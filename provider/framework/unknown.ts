/**
 * During preview, inputs that depend on not-yet-created resources reach check and diff as this sentinel string,
 * whatever their declared type (`@pulumi/pulumi/runtime/rpc.js`, `unknownValue`).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Whether the value at `path` inside `root`, or any value on the way there, is unknown. */
export function pathTouchesUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = root;
  for (const key of path) {
    if (current === UNKNOWN) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return containsUnknown(current);
}
