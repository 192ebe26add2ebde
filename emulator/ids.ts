/** Ids, tokens and slugs the emulated API generates. */
import { createHash, randomBytes } from "node:crypto";

const ALPHANUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random 20-character alphanumeric id, like GitBook's. */
export function randomId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHANUM[b % 62];
  }
  while (out.length < length) out += ALPHANUM[randomBytes(1)[0]! % 62];
  return out;
}

/** Deterministic 20-character alphanumeric id derived from a seed (stable across resets and processes). */
export function stableId(seed: string, length = 20): string {
  const digest = createHash("sha256").update(`docs-platform-emulator:${seed}`).digest();
  let out = "";
  for (let i = 0; out.length < length; i++) out += ALPHANUM[digest[i % digest.length]! % 62];
  return out;
}

export function randomToken(length = 32): string {
  return randomId(length);
}

/** Lower-case URL slug of a title, 1..100 characters. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90)
    .replace(/-+$/g, "");
  return slug || fallback;
}
