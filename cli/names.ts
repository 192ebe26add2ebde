/**
 * Readable, stable names for the generated program: Pulumi resource names are slugs of titles, and the TypeScript
 * variables their camelCase. Duplicates are resolved in the order names are taken, which is the walk's order, so
 * the same organization always gives the same names.
 */

/** Long enough to read, short enough that `const <name> = new docsPlatform.<Kind>("<name>", {` fits in 120 columns. */
const MAX_SLUG = 24;

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN " +
    "Infinity"
  ).split(" "),
);

/** Lowercase ASCII words joined by dashes; accents are dropped, other scripts leave nothing (the caller falls back). */
export function slugify(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG) return slug || word.slice(0, MAX_SLUG);
    slug = next;
  }
  return slug;
}

/** `getting-started` → `gettingStarted`. */
export function camelCase(slug: string): string {
  return slug.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Hands out unique slugs and identifiers; identifiers already in use by the program itself are never given. */
export class Names {
  private readonly slugs = new Set<string>();
  private readonly identifiers: Set<string>;

  constructor(taken: readonly string[] = []) {
    this.identifiers = new Set(taken);
  }

  /**
   * A name for an object titled `title`: its slug; if taken, the slug and the kind's word (`guides-section`); then
   * numbered (`guides-section-2`). A title without a latin letter or digit is named after the kind.
   */
  take(title: string, kindWord: string): { slug: string; identifier: string } {
    const base = slugify(title);
    const candidates = base && base !== kindWord ? [base, `${base}-${kindWord}`] : [kindWord];
    const last = candidates[candidates.length - 1]!;
    for (const slug of candidates) {
      const name = this.claim(slug, kindWord);
      if (name) return name;
    }
    for (let n = 2; ; n++) {
      const name = this.claim(`${last}-${n}`, kindWord);
      if (name) return name;
    }
  }

  private claim(slug: string, kindWord: string): { slug: string; identifier: string } | undefined {
    const identifier = this.identifierFor(slug, kindWord);
    if (this.slugs.has(slug) || this.identifiers.has(identifier)) return undefined;
    this.slugs.add(slug);
    this.identifiers.add(identifier);
    return { slug, identifier };
  }

  private identifierFor(slug: string, kindWord: string): string {
    const identifier = camelCase(slug);
    if (/^[0-9]/.test(identifier) || RESERVED.has(identifier)) return camelCase(`${kindWord}-${slug}`);
    return identifier;
  }
}
