/**
 * What the integration kinds share (an installation in the organization, on a site, on a space): the integration's
 * name, and the configuration a program declares at one level of the integration's schema. Integrations write keys of
 * their own into the same open JSON (tokens of the third-party service), so a program manages only the keys it
 * declares: they are read back alone, and a write sends the whole configuration with the declared keys laid over it.
 */
import { z } from "zod";
import {
  type ApiIntegration,
  type ApiIntegrationConfiguration,
  getIntegration,
  type HttpClient,
  type IntegrationConfigurationLevel,
  integrationPath,
  isNotFound,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { closestName } from "../framework/explain";
import { type PreflightApi, type PreflightFailure, type ResourceContext, SENSITIVE } from "../framework/kind";
import { readListed } from "../framework/listings";
import { containsUnknown } from "../framework/unknown";

/*
 * The document's pattern admits `.` and `..`, which would climb the path they are put in (`encodeURIComponent`
 * leaves dots alone): refused at preview with the rest.
 */
export const integrationName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9\-_.]+$/, "must be letters, digits, `-`, `_` and `.` (the integration's name, as in its URL)")
  .refine((name) => name !== "." && name !== "..", "must name an integration, not `.` or `..`");

const configurationKey = z.string().min(1).max(100);
/** The values an integration's configuration schema declares (`string`, `number`, `boolean`). */
const configurationValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The `configuration` and `secrets` inputs at one level of the integration's schema (the official
 * `configurations.account`, `.site` or `.space`), e.g. `configurationInputs("site", "site")`.
 */
export function configurationInputs(level: string, schema: string) {
  const Level = level[0]!.toUpperCase() + level.slice(1);
  return {
    configuration: z
      .record(configurationKey, configurationValue)
      .optional()
      .describe(
        `The ${level}-level configuration keys this program manages (the integration's ${schema} schema says which ` +
          "exist). Keys left out, and keys the integration writes itself, are not managed. Put credentials in " +
          "`secrets`.",
      ),
    secrets: z
      .record(configurationKey, z.string())
      .optional()
      .meta(SENSITIVE)
      .describe(
        `${Level}-level configuration keys holding credentials (an API key, a client secret): sent in the same ` +
          "configuration, secret in the state and never shown in previews or errors.",
      ),
  };
}

type Declared = { configuration?: Record<string, unknown>; secrets?: Record<string, unknown> };

/** How a level of the document's `configurations` is named to users: the organization's is `account`. */
const LEVEL_WORDS: Record<IntegrationConfigurationLevel, string> = {
  account: "organization-level (`configurations.account`)",
  site: "site-level (`configurations.site`)",
  space: "space-level (`configurations.space`)",
};

/**
 * Preflight of `configuration` and `secrets` against the integration's schema for `level` (`getIntegrationByName`,
 * once per integration and operation): a key the schema does not declare (with the declared key it most likely
 * meant), a required key neither declares, a value of the wrong type or outside the key's allowed values. Values are
 * never quoted: either field may hold a credential. Nothing is asked when neither field declares a key (nothing would
 * be sent), nor for an integration that configures itself with a component of its own (its keys are not listed).
 * The API stores any key (`IntegrationInstallationConfiguration` is open, and integrations write keys of their own),
 * so a misspelt key would be accepted by `up` and read by nobody: preview is where it can be caught.
 */
export async function checkConfigurationKeys(
  kind: string,
  level: IntegrationConfigurationLevel,
  api: PreflightApi,
  inputs: Declared & { integrationName: string },
): Promise<PreflightFailure[]> {
  const name = inputs.integrationName;
  // A whole field not known yet (an Output of another resource) hides its keys: those are `up`'s to check.
  const hidden = (["configuration", "secrets"] as const).some((field) => typeof inputs[field] === "string");
  const declared = (["configuration", "secrets"] as const).filter(
    (field) => typeof inputs[field] === "object" && Object.keys(inputs[field]).length > 0,
  );
  if (containsUnknown(name) || declared.length === 0) return [];
  let integration: ApiIntegration;
  try {
    integration = await api.object(integrationPath(name), () => getIntegration(api.client, name));
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return [
      {
        property: "integrationName",
        reason:
          `${kind}.integrationName: preflight: the catalogue has no integration named "${name}". Give its name as ` +
          `in \`https://app.gitbook.com/integrations/<name>\`, or find it with \`getIntegration({ name })\`.`,
      },
    ];
  }
  const schema = integration.configurations?.[level];
  if (schema?.componentId !== undefined && schema.properties === undefined) return [];
  const subject = `integration "${name}" (${integration.title})`;
  const where = LEVEL_WORDS[level];
  const accepted = acceptedKeys(schema);
  const failures: PreflightFailure[] = [];
  for (const field of declared) {
    for (const [key, value] of Object.entries(inputs[field] ?? {})) {
      const property = schema?.properties?.[key];
      const at = `${kind}.${field}: preflight: ${subject}`;
      if (!property) {
        const near = closestName(key, Object.keys(schema?.properties ?? {}));
        const fix = near === undefined ? "Remove it" : `Did you mean "${near}"? Fix the key's name, or remove it`;
        failures.push({
          property: field,
          reason: `${at} has no ${where} key "${key}"; it accepts ${accepted}. ${fix} (\`getIntegration({ name: "${name}" })\` lists its keys).`,
        });
        continue;
      }
      const wrong = valueProblem(property, value);
      if (wrong) failures.push({ property: field, reason: `${at}: its ${where} key "${key}" ${wrong}.` });
    }
  }
  const missing = (hidden ? [] : (schema?.required ?? [])).filter(
    (key) => !declared.some((field) => Object.hasOwn(inputs[field] ?? {}, key)),
  );
  for (const key of missing) {
    failures.push({
      property: "configuration",
      reason:
        `${kind}.configuration: preflight: ${subject} requires the ${where} key "${key}", which neither ` +
        "`configuration` nor `secrets` declares, and the configuration `up` sends must hold it. Declare it in " +
        "`configuration` (in `secrets` if it is a credential).",
    });
  }
  return failures;
}

/** The reference's note on `checkConfigurationKeys`, for the kind at `level` (`organization-level`, `account`). */
export function configurationPreflightNote(level: string, schema: IntegrationConfigurationLevel): string {
  return (
    `- With preflight on, preview checks the declared keys against the integration's ${level} schema ` +
    `(\`configurations.${schema}\` of \`getIntegration\`, read once per integration and operation): a key it does ` +
    "not declare (naming the close match), a required key neither `configuration` nor `secrets` declares, a value " +
    "of the wrong type or outside its allowed values, never quoting a value. The API's configuration is open JSON " +
    "(integrations write keys of their own there), so without preflight a misspelt key is sent and read by nobody. " +
    "Once any key is declared, a required key the installation holds but the program does not declare counts as " +
    "missing: declare it."
  );
}

/** The keys a level accepts, in words: `"project", "labels" (one of "none", "all")`, required ones marked. */
function acceptedKeys(schema: ApiIntegrationConfiguration | undefined): string {
  const keys = Object.entries(schema?.properties ?? {}).filter(([, property]) => property.type !== "button");
  if (keys.length === 0) return "no keys at this level";
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: with no schema there are no keys and this line is not reached; the set is asked only about the schema's own keys
  const required = new Set(schema?.required ?? []);
  const words = keys.map(([key, property]) => {
    const type = property.enum ? `one of ${property.enum.map((v) => `"${v}"`).join(", ")}` : `a ${property.type}`;
    return `"${key}" (${type}${required.has(key) ? ", required" : ""})`;
  });
  return words.join(", ");
}

/** What is wrong with a declared value, in words that never quote it; undefined when it fits or is not known yet. */
function valueProblem(
  property: NonNullable<ApiIntegrationConfiguration["properties"]>[string],
  value: unknown,
): string | undefined {
  if (containsUnknown(value)) return undefined;
  if (property.type === "button") return "is a button in the app, not a value: remove it";
  if (["string", "number", "boolean"].includes(property.type) && typeof value !== property.type) {
    return `takes a ${property.type}, and the value given is a ${typeof value}: give a ${property.type}`;
  }
  // Stryker disable next-line ConditionalExpression: an enum is a string key's, and a value of another type got the type's answer above
  if (property.enum && typeof value === "string" && !property.enum.includes(value)) {
    return `takes one of ${property.enum.map((v) => `"${v}"`).join(", ")}, and the value given is none of them: give one of them`;
  }
  return undefined;
}

/** A key in both `configuration` and `secrets` would be sent twice with two values: refused at preview. */
export function eachKeyDeclaredOnce(news: Declared, ctx: z.RefinementCtx): void {
  for (const key of Object.keys(news.secrets ?? {})) {
    if (news.configuration && Object.hasOwn(news.configuration, key)) {
      ctx.addIssue({
        // Stryker disable next-line StringLiteral: describeIssue reports any code it does not name by the issue's message
        code: "custom",
        path: ["secrets", key],
        message: "is declared in `configuration` too: declare each key once",
      });
    }
  }
}

/** The state of `configuration` and `secrets`: what the API holds now under the declared keys only. */
export const configurationState = {
  configuration: z.record(z.string(), z.unknown()).default({}),
  secrets: z.record(z.string(), z.unknown()).default({}),
};

/** The keys of `declared` as the installation holds them now; a key it does not hold is absent (drift). */
export function project(configuration: Record<string, unknown>, declared: Record<string, unknown> | undefined) {
  return Object.fromEntries(
    Object.keys(declared ?? {})
      // Stryker disable next-line MethodExpression,ConditionalExpression,ArrowFunction: a key not held would map to undefined, which no state keeps (outputs are JSON)
      .filter((key) => Object.hasOwn(configuration, key))
      .map((key) => [key, configuration[key]]),
  );
}

/** `configuration` and `secrets` as a state records them, from the configuration the API reports. */
export function declaredAsHeld(configuration: Record<string, unknown> | null | undefined, declared: Declared) {
  return {
    configuration: project(configuration ?? {}, declared.configuration),
    secrets: project(configuration ?? {}, declared.secrets),
  };
}

/**
 * The whole configuration to send, or undefined when every declared key already holds its value. Whether the API
 * merges a configuration into the stored one or replaces it is not documented: the current one goes with the declared
 * keys laid over it, so keys the program does not manage (the integration's own included) survive either way.
 */
export function configurationToSend(stored: Record<string, unknown> | null | undefined, news: Declared) {
  const declared = { ...(news.configuration ?? {}), ...(news.secrets ?? {}) };
  const current = stored ?? {};
  return Object.entries(declared).some(([key, value]) => current[key] !== value)
    ? { ...current, ...declared }
    : undefined;
}

/**
 * An organization installation on one site or one space: the same six operations under `…/sites/{siteId}` and
 * `…/spaces/{spaceId}`, given here by target. What differs between the two kinds is these calls and the input that
 * names the target; their lifecycle is `onTargetLifecycle`.
 */
export interface OnTargetCalls<Item extends { configuration?: Record<string, unknown> | null; status?: string }> {
  kind: string;
  /** The input naming the site or space. */
  target: "siteId" | "spaceId";
  install(client: HttpClient, name: string, installation: string, target: string): Promise<Item>;
  get(client: HttpClient, name: string, installation: string, target: string): Promise<Item>;
  update(
    client: HttpClient,
    name: string,
    installation: string,
    target: string,
    body: { configuration: Record<string, unknown> },
  ): Promise<Item>;
  uninstall(client: HttpClient, name: string, installation: string, target: string): Promise<void>;
  /** Every target of one organization installation, with its configuration. */
  list(client: HttpClient, name: string, installation: string): Promise<Item[]>;
  listPath(name: string, installation: string): string;
  /** The target an item names (the API's `site` or `space`: an id, or the object with `extended`). */
  targetOf(item: Item): string;
}

type OnTargetInputs = Declared & { organizationId: string; installationId: string; integrationName: string };

/** Target and installation ids never contain a slash, so the pair makes an unambiguous resource id. */
export const onTargetId = (target: string, installation: string) => `${target}/${installation}`;

/** The targets of one organization installation, shared by every read and listing of the operation. */
export function targetsOf<Item extends { configuration?: Record<string, unknown> | null; status?: string }>(
  ctx: ResourceContext,
  calls: OnTargetCalls<Item>,
  name: string,
  installation: string,
): Promise<Item[]> {
  return ctx.listings.get(calls.listPath(name, installation), () => calls.list(ctx.client, name, installation));
}

/**
 * findCreated, create, read, update and delete of an installation on a target: install then one PATCH of the
 * declared configuration (undone when refused), reads from the installation's listing of its targets.
 */
export function onTargetLifecycle<
  Item extends { configuration?: Record<string, unknown> | null; status?: string },
  Inputs extends OnTargetInputs,
  State,
>(calls: OnTargetCalls<Item>, toState: (item: Item, known: Inputs) => State) {
  const targetOf = (news: Inputs) => String((news as Record<string, unknown>)[calls.target]);
  return {
    // The pair is the key the API keeps unique.
    async findCreated({ client }: ResourceContext, news: Inputs) {
      const items = await calls.list(client, news.integrationName, news.installationId);
      return items
        .filter((item) => calls.targetOf(item) === targetOf(news))
        .map(() => ({ id: onTargetId(targetOf(news), news.installationId), title: news.integrationName }));
    },

    async create({ client }: ResourceContext, news: Inputs) {
      const { integrationName: name, installationId: installation } = news;
      const target = targetOf(news);
      const installed = await calls.install(client, name, installation, target);
      const configuration = configurationToSend(installed.configuration, news);
      const id = onTargetId(target, installation);
      const item = configuration
        ? await undoOnFailure(
            { kind: calls.kind, id, title: name },
            () => calls.uninstall(client, name, installation, target),
            () => calls.update(client, name, installation, target, { configuration }),
          )
        : installed;
      return { id, state: toState(item, news) };
    },

    async read(ctx: ResourceContext, id: string, known: Inputs) {
      const { integrationName: name, installationId: installation } = known;
      const item = await readListed(ctx.listings, {
        path: calls.listPath(name, installation),
        list: () => calls.list(ctx.client, name, installation),
        matches: (listed) => calls.targetOf(listed) === targetOf(known),
        single: () => calls.get(ctx.client, name, installation, targetOf(known)),
      });
      return item && { id, state: toState(item, known) };
    },

    async update({ client }: ResourceContext, _id: string, _olds: unknown, news: Inputs) {
      const { integrationName: name, installationId: installation } = news;
      const target = targetOf(news);
      const current = await calls.get(client, name, installation, target);
      const configuration = configurationToSend(current.configuration, news);
      const item = configuration ? await calls.update(client, name, installation, target, { configuration }) : current;
      return toState(item, news);
    },

    delete: ({ client }: ResourceContext, _id: string, olds: Inputs) =>
      calls.uninstall(client, olds.integrationName, olds.installationId, targetOf(olds)),
  };
}
