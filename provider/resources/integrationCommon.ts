/**
 * What the integration kinds share (an installation in the organization, on a site, on a space): the integration's
 * name, and the configuration a program declares at one level of the integration's schema. Integrations write keys of
 * their own into the same open JSON (tokens of the third-party service), so a program manages only the keys it
 * declares: they are read back alone, and a write sends the whole configuration with the declared keys laid over it.
 */
import { z } from "zod";
import type { HttpClient } from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { type ResourceContext, SENSITIVE } from "../framework/kind";
import { readListed } from "../framework/listings";

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
