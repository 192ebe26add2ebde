/**
 * Merge rules, the review policy of change requests: an organization's (`OrganizationSettings.mergeRules`) and a
 * space's, which may follow its organization's (`Space.mergeRules`). The official `MergeRule` has three rules that
 * name users, a custom expression, and eight that take nothing.
 */
import { z } from "zod";
import { idRef } from "../framework/kind";

const USER_LIST_RULES = ["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"] as const;
const PLAIN_RULES = [
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_agent_review",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_change_request_description",
  "require_author_to_merge",
] as const;

const mergeRule = z
  .discriminatedUnion(
    "rule",
    [
      z.strictObject({
        rule: z.enum(USER_LIST_RULES),
        users: z.array(idRef("OrganizationMember")).describe("The users the rule names (members' user ids)."),
      }),
      z.strictObject({ rule: z.enum(PLAIN_RULES) }),
      z.strictObject({
        rule: z.literal("custom"),
        expression: z.string().max(1024).describe("The condition, in the API's expression syntax."),
        message: z.string().optional().describe("Shown when the expression is false."),
      }),
    ],
    { error: `must be a merge rule: rule is one of ${[...USER_LIST_RULES, ...PLAIN_RULES, "custom"].join(", ")}` },
  )
  .meta({ id: "MergeRule" });
type MergeRule = z.output<typeof mergeRule>;

/**
 * The API keeps rules as sent, but all must pass, so their order (and the order of a rule's users) means nothing:
 * both sides of a diff are put in one canonical order, and a reorder is no change.
 */
function canonicalRules(rules: readonly MergeRule[]): MergeRule[] {
  const sorted = rules.map((rule) => ("users" in rule ? { ...rule, users: [...rule.users].sort() } : rule));
  // Stryker disable next-line EqualityOperator: two rules that stringify alike are alike, in either order.
  return sorted.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

const ruleList = z
  .strictObject({ type: z.literal("rules"), rules: z.array(mergeRule).overwrite(canonicalRules) })
  .meta({ id: "MergeRuleList" })
  .describe("Every rule must pass before a change request merges.");
const none = z
  .strictObject({ type: z.literal("none") })
  .meta({ id: "NoMergeRules" })
  .describe("Change requests merge without review.");
const inherit = z
  .strictObject({ type: z.literal("inherit") })
  .meta({ id: "InheritedMergeRules" })
  .describe("The organization's merge rules apply.");

const TEXT =
  'Order-insensitive. Omitted: not managed. E.g. `{ type: "rules", rules: [{ rule: "require_at_least_one_review" }] }`.';

/** An organization's merge rules: `rules` or `none`. */
export const organizationMergeRules = z
  .discriminatedUnion("type", [ruleList, none])
  .meta({ id: "OrganizationMergeRules" })
  .optional()
  .describe(`The review a change request needs before it merges: \`rules\` or \`none\`. ${TEXT}`);

/** A space's merge rules: its own, `none`, or `inherit` (the organization's, which a new space has). */
export const spaceMergeRules = z
  .discriminatedUnion("type", [ruleList, none, inherit])
  .meta({ id: "SpaceMergeRules" })
  .optional()
  .describe(`The review a change request needs before it merges: \`rules\`, \`none\` or \`inherit\`. ${TEXT}`);

/** The merge rules as state: what the API reports, in the canonical order of the inputs. */
export const mergeRulesState = z
  .object({ type: z.string(), rules: z.array(z.record(z.string(), z.unknown())).optional() })
  .meta({ id: "ReportedMergeRules" })
  .nullable()
  .default(null);

/** The API's merge rules in the inputs' canonical order. */
export function mergeRulesOf(reported: { type: string; rules?: unknown[] } | null | undefined) {
  if (!reported) return null;
  if (reported.type !== "rules") return { type: reported.type };
  return { type: "rules", rules: canonicalRules((reported.rules ?? []) as MergeRule[]) };
}
