import { z } from "zod";

/** States the rule a value broke, in the words of the API's limits table, e.g. "must be at most 50 characters". */
export function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "too_big":
      return issue.inclusive === false
        ? `must be less than ${String(issue.maximum)}${unit(issue.origin, issue.maximum)}`
        : `must be at most ${String(issue.maximum)}${unit(issue.origin, issue.maximum)}`;
    case "too_small":
      return issue.inclusive === false
        ? `must be greater than ${String(issue.minimum)}${unit(issue.origin, issue.minimum)}`
        : `must be at least ${String(issue.minimum)}${unit(issue.origin, issue.minimum)}`;
    case "invalid_format":
      // A schema's own wording (`.regex(re, "must be …")`) explains the rule better than the pattern does.
      if (issue.message && !issue.message.startsWith("Invalid")) return issue.message;
      return issue.format === "regex" && "pattern" in issue && issue.pattern
        ? `must match the pattern ${issue.pattern}`
        : `must be a valid ${issue.format}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_type":
      return `must be ${article(issue.expected)}`;
    case "invalid_key": {
      // A record's key broke its schema (a header name): state the key's rule, not zod's "Invalid key in record".
      const [rule] = issue.issues;
      return rule ? describeIssue(rule) : issue.message;
    }
    case "unrecognized_keys":
      // A schema's own wording says where a misplaced key belongs (a credential among plain settings).
      if (issue.message !== zodWording(issue)) return issue.message;
      return `unknown propert${issue.keys.length > 1 ? "ies" : "y"} ${issue.keys.join(", ")}; check the spelling`;
    default:
      return issue.message;
  }
}

function unit(origin: string, bound: number | bigint): string {
  const many = Number(bound) !== 1;
  if (origin === "string") return many ? " characters" : " character";
  if (origin === "array" || origin === "set") return many ? " items" : " item";
  return "";
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** zod's own wording of an issue (its configured locale's), told apart from a schema's `error`. */
function zodWording(issue: z.core.$ZodIssue): string | undefined {
  const said = z.config().localeError?.(issue as never);
  return typeof said === "string" ? said : said?.message;
}
