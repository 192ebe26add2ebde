import type { ResourceValidation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { dynamicType } from "../../provider/framework/typeTokens";
import { docsPolicies, docsPolicyPack } from "../../provider/policy";
import { RULES } from "../../provider/policy/rules";
import { configProblems, type Settings } from "../../provider/policy/settings";

const SETTINGS = new Map(RULES.map((rule) => [rule.id, rule.settings as Settings]));
const problems = (config: Record<string, unknown>, others: string[] = []) => configProblems(config, SETTINGS, others);

describe("the policy config", () => {
  it("accepts levels, settings of the right type, and `all`", () => {
    expect(
      problems({
        all: "advisory",
        "docs-public-site-allowed": { enforcementLevel: "mandatory", allowedSites: ["Acme Docs"] },
        "docs-share-links-per-site": { maxPerSite: 0 },
        "docs-default-role": { maxRole: "read" },
        "docs-openapi-public-allowed": "disabled",
        "docs-sso-enforced": {},
      }),
    ).toEqual([]);
  });

  it("refuses a rule this pack does not have, naming the rule it likely meant, or else listing the rules", () => {
    expect(problems({ "docs-public-site-alowed": { allowedSites: ["Acme Docs"] } })).toEqual([
      '"docs-public-site-alowed" is not a rule of this policy pack: did you mean "docs-public-site-allowed"? Fix the name or remove the entry',
    ]);
    const [problem, ...rest] = problems({ "aws-s3-public": "mandatory" });
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /^"aws-s3-public" is not a rule of this policy pack: its rules are docs-public-site-allowed, docs-share-link-named, .*, docs-no-share-links-on-public-sites, docs-credentials-in-secrets, docs-git-sync-priority \(and "all" for every rule's enforcement level\)\. Fix the name or remove the entry$/,
    );
  });

  it("leaves the config of the pack's other policies to them", () => {
    expect(problems({ "my-own-rule": { anything: 1 } }, ["my-own-rule"])).toEqual([]);
  });

  it("refuses a setting the rule does not have, and a value of the wrong type, each with what is expected", () => {
    expect(
      problems({
        "docs-share-links-per-site": { maxPerSite: "three", maxLinks: 2 },
        "docs-public-site-allowed": { allowedSites: "Acme Docs" },
        "docs-https-urls": { allowedHttpHosts: ["ok", 3] },
        "docs-default-role": { maxRole: "owner" },
        "docs-share-link-named": { minLength: 0.5 },
        "docs-sso-enforced": { strict: true },
      }),
    ).toEqual([
      'docs-share-links-per-site: maxPerSite must be an integer, at least 0, not "three" (a string)',
      'docs-share-links-per-site: "maxLinks" is not a setting of this rule (its settings are maxPerSite); remove it or fix its name',
      'docs-public-site-allowed: allowedSites must be a list of strings, not "Acme Docs" (a string)',
      'docs-https-urls: allowedHttpHosts must be a list of strings, not ["ok",3] (a list)',
      'docs-default-role: maxRole must be one of "read", "comment", "review", "edit", "create", "admin", not "owner" (a string)',
      "docs-share-link-named: minLength must be an integer, at least 1, not 0.5 (a number)",
      'docs-sso-enforced: "strict" is not a setting of this rule (it has no settings); remove it or fix its name',
    ]);
  });

  it("refuses an enforcement level these rules do not have, and an entry that is neither a level nor settings", () => {
    expect(
      problems({
        "docs-team-members": "remediate",
        "docs-default-level": { enforcementLevel: "warn" },
        all: "loud",
        "docs-https-urls": ["https"],
      }),
    ).toEqual([
      'docs-team-members: enforcementLevel must be one of advisory, mandatory, disabled, not "remediate" (a string)',
      'docs-default-level: enforcementLevel must be one of advisory, mandatory, disabled, not "warn" (a string)',
      'all: enforcementLevel must be one of advisory, mandatory, disabled, not "loud" (a string)',
      'docs-https-urls: must be an enforcement level or an object of settings, not ["https"] (a list)',
    ]);
  });

  it("docsPolicyPack refuses a bad config before it serves anything, listing every problem", () => {
    expect(() =>
      docsPolicyPack({ config: { "docs-unknown": "mandatory", "docs-share-links-per-site": { maxPerSite: -1 } } }),
    ).toThrow(
      /^docsPolicyPack: the policy config is invalid:\n {2}- "docs-unknown" is not a rule.*\n {2}- docs-share-links-per-site: maxPerSite must be an integer, at least 0, not -1 \(a number\)$/,
    );
  });

  it("a policy given a wrong setting at run time fails, naming the rule and the setting", async () => {
    const policy = docsPolicies().find((p) => p.name === "docs-public-site-allowed") as ResourceValidationPolicy;
    const args = {
      type: dynamicType("Site"),
      name: "docs",
      urn: "urn:pulumi:dev::docs::x::docs",
      props: { visibility: "public", published: true, title: "Acme Docs" },
      opts: { protect: false },
      getConfig: () => ({ allowedSite: ["Acme Docs"] }),
    } as unknown as ResourceValidationArgs;
    await expect(async () => (policy.validateResource as ResourceValidation)(args, () => undefined)).rejects.toThrow(
      'rule docs-public-site-allowed: the policy config is invalid:\n  - docs-public-site-allowed: "allowedSite" is not a setting of this rule (its settings are allowedSites)',
    );
  });

  it("gives every policy a config schema with each setting's type, default and description", () => {
    for (const policy of docsPolicies()) {
      const rule = RULES.find((r) => r.id === policy.name)!;
      const properties = policy.configSchema?.properties ?? {};
      expect(Object.keys(properties)).toEqual(Object.keys(rule.settings));
      for (const [name, setting] of Object.entries(rule.settings as Settings)) {
        expect(properties[name]).toEqual({
          ...setting.schema,
          description: setting.description,
          default: setting.default,
        });
      }
    }
  });
});
