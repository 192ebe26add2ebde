import { z } from "zod";
import { describeIssue } from "./issues";
import { apiId, type KindDefinition, type Props } from "./kind";
import type { CheckFailure } from "./lifecycleResults";
import { containsUnknown, pathTouchesUnknown } from "./unknown";
import { sameValue } from "./values";

/** The provider option that lets a change of a `guardedReplaces` property replace the object. */
export const ALLOW_REPLACE = "allowReplace";
const IMPORT_ID = "importId";

/**
 * The engine prints the value of a failed check next to the property the failure names. A value longer than this,
 * or of an input marked sensitive, is reported without naming the property there (the reason still names it).
 */
export const ECHO_LIMIT = 4096;

/**
 * The offline half of check: a kind's schemas applied to the program's inputs and `importId`, each failure in the
 * user's words (kind, property, rule), values known only after apply let through.
 */
export class InputRules<Inputs extends Props> {
  private readonly sensitive: ReadonlySet<string>;
  private readonly unechoed: ReadonlySet<string>;
  private readonly importId: z.ZodType<string, string>;

  constructor(
    private readonly definition: Pick<KindDefinition<Inputs>, "kind" | "inputs" | "importId" | "guardedReplaces">,
  ) {
    this.sensitive = sensitiveInputsOf(definition);
    this.unechoed = inputsMarked(definition, "unechoed");
    this.importId = definition.importId ?? apiId;
  }

  /**
   * The failures of `importId` and of the declared inputs (leaving out properties already `reported`), and the inputs
   * as the schema gives them back (defaults applied, unknown values kept).
   */
  judge(
    olds: Props,
    declared: Props,
    importId: unknown,
    reported: ReadonlySet<string>,
  ): { failures: CheckFailure[]; inputs: Props } {
    const failures: CheckFailure[] = [];
    if (importId !== undefined && !containsUnknown(importId)) {
      const importCheck = this.importId.safeParse(importId);
      for (const issue of importCheck.error?.issues ?? []) {
        failures.push(this.failure({ [IMPORT_ID]: importId }, IMPORT_ID, issue));
      }
    }
    const parsed = this.definition.inputs.safeParse(declared);
    for (const issue of parsed.error?.issues ?? []) {
      // A value only known after apply may still turn out valid: judge it then, in create or update.
      if (pathTouchesUnknown(declared, issue.path)) continue;
      const property = issue.path.length > 0 ? issue.path.map(String).join(".") : (unrecognizedKey(issue) ?? "");
      if (!reported.has(property)) failures.push(this.failure(declared, property, issue));
    }
    if (parsed.success) failures.push(...this.guardedReplaceFailures(olds, parsed.data));
    return { failures, inputs: parsed.success ? parsed.data : this.withDefaults(declared) };
  }

  /**
   * A change of a guarded property (`guardedReplaces`) would replace the object: refused at preview, since `olds` are
   * the old inputs the engine passes to check (empty on create), unless the inputs set `allowReplace: true`.
   */
  private guardedReplaceFailures(olds: Props, inputs: Props): CheckFailure[] {
    const guarded = this.definition.guardedReplaces;
    if (!guarded || inputs[ALLOW_REPLACE] === true || guarded.when?.(olds as Partial<Inputs>) === false) return [];
    return guarded.properties
      .filter((key) => olds[key] !== undefined && inputs[key] !== undefined && !containsUnknown(olds[key]))
      .filter((key) => !containsUnknown(inputs[key]) && !sameValue(olds[key], inputs[key]))
      .map((key) => ({
        property: key,
        reason:
          `${this.definition.kind}.${key}: changing it from ${JSON.stringify(olds[key])} to ${JSON.stringify(inputs[key])} ` +
          `replaces the ${this.definition.kind}: ${guarded.why} Put ${key} back to ${JSON.stringify(olds[key])}, or set ` +
          `${ALLOW_REPLACE}: true on this resource to replace it.`,
      }));
  }

  /**
   * A failure naming the kind, the property and the rule. The engine echoes `news[property]` when `property` names
   * one (step_generator.go, issueCheckFailures): for a sensitive input or a huge value, the property is named in the
   * reason only.
   */
  private failure(news: Props, property: string, issue: z.core.$ZodIssue): CheckFailure {
    const reason = `${this.definition.kind}.${property || "(inputs)"}: ${describeIssue(issue)}`;
    const top = property.split(".")[0] ?? "";
    const value = news[top];
    const huge = value !== undefined && (JSON.stringify(value)?.length ?? 0) > ECHO_LIMIT;
    if (!this.sensitive.has(top) && !this.unechoed.has(top) && !huge) return { property, reason };
    return {
      property: "",
      reason: `${reason} (value not shown: ${huge ? "too long" : this.sensitive.has(top) ? "sensitive" : "it may hold a secret"})`,
    };
  }

  /**
   * Inputs holding unknown values cannot pass the schema whole; the known properties still get their defaults, so a
   * preview compares the same values the apply will (a share link's `active: true`, a member's role).
   */
  private withDefaults(declared: Props): Props {
    const unknownKeys = Object.keys(declared).filter((key) => containsUnknown(declared[key]));
    const unknown = Object.fromEntries(unknownKeys.map((key) => [key, declared[key]]));
    const known = Object.fromEntries(Object.entries(declared).filter(([key]) => !unknownKeys.includes(key)));
    try {
      const mask = Object.fromEntries(unknownKeys.map((key) => [key, true])) as Record<string, true>;
      const schema = (this.definition.inputs as unknown as { omit(mask: Record<string, true>): z.ZodType }).omit(mask);
      const parsed = schema.safeParse(known);
      if (parsed.success) return { ...(parsed.data as Props), ...unknown };
    } catch {
      // zod cannot omit keys of a schema with refinements: such inputs go through as the program gave them.
    }
    return declared;
  }
}

/** Inputs whose schema carries `.meta(SENSITIVE)`. */
export function sensitiveInputsOf(definition: Pick<KindDefinition, "inputs">): ReadonlySet<string> {
  return inputsMarked(definition, "sensitive");
}

/** The inputs whose schema carries `marker: true` in its metadata (`SENSITIVE`, `UNECHOED`). */
function inputsMarked(
  definition: Pick<KindDefinition, "inputs">,
  marker: "sensitive" | "unechoed",
): ReadonlySet<string> {
  const schema = z.toJSONSchema(definition.inputs, { io: "input", unrepresentable: "any" });
  const properties = Object.entries(schema.properties ?? {});
  return new Set(
    properties.filter(([, property]) => typeof property === "object" && property[marker] === true).map(([key]) => key),
  );
}

function unrecognizedKey(issue: z.core.$ZodIssue): string | undefined {
  return issue.code === "unrecognized_keys" ? issue.keys.join(", ") : undefined;
}
