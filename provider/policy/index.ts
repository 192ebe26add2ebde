/**
 * `pulumi-docs-platform/policy`: the docs platform policy pack (CrossGuard), for `pulumi preview --policy-pack` and
 * Pulumi Cloud's organization policies. A pack's index.ts is one call:
 *
 * ```ts
 * import { docsPolicyPack } from "pulumi-docs-platform/policy";
 * docsPolicyPack();
 * ```
 *
 * Levels and settings come from the standard policy config (`--policy-pack-config <file>`, or the organization's
 * policy group), or from `config` here. The rules, their settings and example messages: docs/policy.md. Needs the
 * optional peer dependency `@pulumi/policy`.
 */
import { createRequire } from "node:module";
import {
  type EnforcementLevel,
  type Policies,
  type PolicyConfigSchema,
  PolicyPack,
  type PolicyPackConfig,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
} from "@pulumi/policy";
import { kindsOf, RULES, type Rule } from "./rules";
import { configError, configProblems, resolvedSettings, type Settings } from "./settings";
import { docsResourceOf, messageOf, type PolicySubject, StackView } from "./view";

export { RULES } from "./rules";

/** The pack's name, as `pulumi preview` prints it and as Pulumi Cloud lists it. */
export const PACK_NAME = "docs-platform";

const SETTINGS: ReadonlyMap<string, Settings> = new Map(RULES.map((rule) => [rule.id, rule.settings as Settings]));

function configSchemaOf(rule: Rule): PolicyConfigSchema {
  const properties: PolicyConfigSchema["properties"] = {};
  for (const [name, setting] of Object.entries(rule.settings as Settings)) {
    properties[name] = {
      ...setting.schema,
      description: setting.description,
      default: setting.default as string | number | string[],
    } as PolicyConfigSchema["properties"][string];
  }
  return { properties };
}

function policyOf(rule: Rule): ResourceValidationPolicy | StackValidationPolicy {
  const settings = rule.settings as Settings;
  const common = {
    name: rule.id,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel as EnforcementLevel,
    configSchema: configSchemaOf(rule),
  };
  const kinds = kindsOf(rule);
  if (rule.scope === "resource") {
    return {
      ...common,
      validateResource(args, reportViolation) {
        const resource = docsResourceOf(args as unknown as PolicySubject);
        if (resource === undefined || !kinds.includes(resource.kind)) return;
        const values = resolvedSettings(rule.id, settings, args.getConfig());
        for (const finding of rule.check(resource, values)) reportViolation(messageOf(finding));
      },
    };
  }
  return {
    ...common,
    validateStack(args, reportViolation) {
      const resources = args.resources.flatMap((subject) => docsResourceOf(subject as unknown as PolicySubject) ?? []);
      // A stack without docs resources passes quietly, even with a config this rule would refuse.
      if (!resources.some((resource) => kinds.includes(resource.kind))) return;
      const values = resolvedSettings(rule.id, settings, args.getConfig());
      for (const finding of rule.check(new StackView(resources), values)) {
        reportViolation(messageOf(finding), finding.resource.urn);
      }
    },
  };
}

/**
 * The pack's policies, one per rule, each judging the resources of both routes (`pulumi-nodejs:dynamic/docs:<Kind>`
 * and `docs:index:<Kind>`): to serve next to policies of your own, or to call in tests.
 */
export function docsPolicies(): Policies {
  return RULES.map(policyOf);
}

export interface DocsPolicyPackOptions {
  /** The pack's name; `docs-platform` by default. */
  name?: string;
  /**
   * Levels and settings, as in a policy config file: `{ "<rule id>": "<level>" | { enforcementLevel?, ...settings } }`.
   * A config file given to the CLI applies over it.
   */
  config?: PolicyPackConfig;
  /** Policies of your own, served in the same pack. */
  policies?: Policies;
}

/**
 * Serves the docs platform pack: call it once from the pack's entry point. Throws when `config` names an unknown rule
 * or setting or gives a wrong value; a config the CLI sends is checked the same way, and refused with the same words.
 */
export function docsPolicyPack(options: DocsPolicyPackOptions = {}): PolicyPack {
  const own = (options.policies ?? []).map((policy) => policy.name);
  const problems = configProblems(options.config ?? {}, SETTINGS, own);
  if (problems.length > 0) throw configError(`docsPolicyPack`, problems);
  return withConfigCheck(
    own,
    () =>
      new PolicyPack(
        options.name ?? PACK_NAME,
        {
          policies: [...docsPolicies(), ...(options.policies ?? [])],
          description: "Rules for docs platforms declared with pulumi-docs-platform.",
        },
        options.config,
      ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The config the engine sends

interface ConfigureCall {
  request: {
    getPolicyconfigMap(): {
      entries(): Iterable<[string, { getProperties(): { toJavaScript(): Record<string, unknown> } | undefined }]>;
    };
  };
}
type Callback = (error: unknown, value?: unknown) => void;
type Handler = (call: ConfigureCall, callback: Callback) => void;
interface Grpc {
  Server: { prototype: { addService(service: unknown, implementation: Record<string, unknown>): void } };
  status: { INVALID_ARGUMENT: number };
}

/**
 * Runs `serve` (the PolicyPack constructor, which starts the analyzer's gRPC server) so that its Configure call checks
 * the config first. The engine validates each policy's settings against its schema but passes on a rule or a setting
 * no schema names, and the policy SDK would ignore it: a typo would silently leave a rule at its default. The SDK
 * has no hook for this, so the service it registers gets its `configure` wrapped, once, on the gRPC module the SDK
 * itself loads; test/e2e/policy.test.ts checks that the CLI then refuses such a config.
 */
function withConfigCheck<T>(others: readonly string[], serve: () => T): T {
  const grpc = createRequire(require.resolve("@pulumi/policy"))("@grpc/grpc-js") as Grpc;
  const server = grpc.Server.prototype;
  const addService = server.addService;
  server.addService = function (this: unknown, service, implementation) {
    const configure = implementation.configure as Handler | undefined;
    const checked: Handler = (call, callback) => {
      const config: Record<string, unknown> = {};
      for (const [key, value] of call.request.getPolicyconfigMap().entries()) {
        config[key] = value.getProperties()?.toJavaScript() ?? {};
      }
      const problems = configProblems(config, SETTINGS, others);
      if (problems.length === 0) return configure?.(call, callback);
      const details = configError(PACK_NAME, problems).message;
      callback(Object.assign(new Error(details), { code: grpc.status.INVALID_ARGUMENT, details }));
    };
    return addService.call(this, service, configure ? { ...implementation, configure: checked } : implementation);
  };
  try {
    return serve();
  } finally {
    server.addService = addService;
  }
}
