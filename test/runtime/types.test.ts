import type * as pulumi from "@pulumi/pulumi";
import { expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type * as docs from "../../provider";
import type { collectionKind } from "../../provider/resources/collection";
import type { collectionPermissionKind } from "../../provider/resources/collectionPermission";
import type { gitSyncInstallationKind } from "../../provider/resources/gitSyncInstallation";
import type { integrationInstallationKind } from "../../provider/resources/integrationInstallation";
import type { integrationSiteInstallationKind } from "../../provider/resources/integrationSiteInstallation";
import type { integrationSpaceInstallationKind } from "../../provider/resources/integrationSpaceInstallation";
import type { openApiSpecKind } from "../../provider/resources/openApiSpec";
import type { organizationAgentInstructionsKind } from "../../provider/resources/organizationAgentInstructions";
import type { organizationMemberKind } from "../../provider/resources/organizationMember";
import type { organizationSettingsKind } from "../../provider/resources/organizationSettings";
import type { samlProviderKind } from "../../provider/resources/samlProvider";
import type { siteKind } from "../../provider/resources/site";
import type { siteAdaptiveSchemaKind } from "../../provider/resources/siteAdaptiveSchema";
import type { siteAgentSettingsKind } from "../../provider/resources/siteAgentSettings";
import type { siteChannelKind } from "../../provider/resources/siteChannel";
import type { siteCustomizationKind } from "../../provider/resources/siteCustomization";
import type { siteExternalLinkKind } from "../../provider/resources/siteExternalLink";
import type { siteMcpServerKind } from "../../provider/resources/siteMcpServer";
import type { sitePermissionKind } from "../../provider/resources/sitePermission";
import type { siteRedirectKind } from "../../provider/resources/siteRedirect";
import type { siteRedirectsKind } from "../../provider/resources/siteRedirects";
import type { siteSectionKind } from "../../provider/resources/siteSection";
import type { siteSectionGroupKind } from "../../provider/resources/siteSectionGroup";
import type { siteShareLinkKind } from "../../provider/resources/siteShareLink";
import type { siteSpaceKind } from "../../provider/resources/siteSpace";
import type { siteSpaceCustomizationKind } from "../../provider/resources/siteSpaceCustomization";
import type { siteStructureKind } from "../../provider/resources/siteStructure";
import type { siteVisitorAuthKind } from "../../provider/resources/siteVisitorAuth";
import type { spaceKind } from "../../provider/resources/space";
import type { spacePermissionKind } from "../../provider/resources/spacePermission";
import type { teamKind } from "../../provider/resources/team";
import type { teamMemberKind } from "../../provider/resources/teamMember";
import type { translationKind } from "../../provider/resources/translation";
import type { translationGlossaryKind } from "../../provider/resources/translationGlossary";

/** What a kind's state schema says its outputs are. */
type StateOf<K> = K extends { state: z.ZodType<infer S, unknown> } ? S : never;
/** What a kind's input schema produces (its output side: defaults filled in). */
type InputsOf<K> = K extends { inputs: z.ZodType<infer I, unknown> } ? I : never;
/** What the generated class declares: its Output properties, without the id and urn every resource has. */
type DeclaredOutputs<C> = {
  -readonly [K in keyof C as K extends "id" | "urn"
    ? never
    : C[K] extends pulumi.OutputInstance<unknown>
      ? K
      : never]: C[K] extends pulumi.OutputInstance<infer T> ? T : never;
};
/** Every value a program's input can become, for the outputs that echo an input. */
type Echoed<K> = { [P in keyof StateOf<K> & keyof InputsOf<K>]-?: Exclude<InputsOf<K>[P], undefined> };

/** Whether two types are the same (the identity check expect-type uses). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** How a class's outputs sit between its kind's schemas; every check `true` when they fit. */
type Bounds<K, C> = {
  /** It declares each output of the state, no more. */
  sameKeys: Same<keyof DeclaredOutputs<C>, keyof StateOf<K>>;
  /** Each at most as wide as the state schema allows: what older states hold still fits. */
  withinState: DeclaredOutputs<C> extends StateOf<K> ? true : false;
  /** Each echoing an input at least as wide as the input: every declared value reads back. */
  admitsInputs: Echoed<K> extends Pick<DeclaredOutputs<C>, keyof Echoed<K> & keyof DeclaredOutputs<C>> ? true : false;
};
type Fits = { sameKeys: true; withinState: true; admitsInputs: true };

/**
 * Compile-time proof (tsc checks this file; `npm run typecheck`) that a generated class cannot drift from its
 * kind's schemas.
 */
it("types each class's outputs between its input and its state schema", () => {
  expectTypeOf<Bounds<typeof collectionKind, docs.Collection>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof spaceKind, docs.Space>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof spacePermissionKind, docs.SpacePermission>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof collectionPermissionKind, docs.CollectionPermission>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof samlProviderKind, docs.SamlProvider>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof teamKind, docs.Team>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof teamMemberKind, docs.TeamMember>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof organizationSettingsKind, docs.OrganizationSettings>>().toEqualTypeOf<Fits>();
  expectTypeOf<
    Bounds<typeof organizationAgentInstructionsKind, docs.OrganizationAgentInstructions>
  >().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof organizationMemberKind, docs.OrganizationMember>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof openApiSpecKind, docs.OpenApiSpec>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteKind, docs.Site>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteSectionKind, docs.SiteSection>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteSectionGroupKind, docs.SiteSectionGroup>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteExternalLinkKind, docs.SiteExternalLink>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteSpaceKind, docs.SiteSpace>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteShareLinkKind, docs.SiteShareLink>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteAdaptiveSchemaKind, docs.SiteAdaptiveSchema>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof sitePermissionKind, docs.SitePermission>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteStructureKind, docs.SiteStructure>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteVisitorAuthKind, docs.SiteVisitorAuth>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteRedirectKind, docs.SiteRedirect>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteRedirectsKind, docs.SiteRedirects>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteMcpServerKind, docs.SiteMcpServer>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteChannelKind, docs.SiteChannel>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof integrationInstallationKind, docs.IntegrationInstallation>>().toEqualTypeOf<Fits>();
  expectTypeOf<
    Bounds<typeof integrationSiteInstallationKind, docs.IntegrationSiteInstallation>
  >().toEqualTypeOf<Fits>();
  expectTypeOf<
    Bounds<typeof integrationSpaceInstallationKind, docs.IntegrationSpaceInstallation>
  >().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof siteAgentSettingsKind, docs.SiteAgentSettings>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof gitSyncInstallationKind, docs.GitSyncInstallation>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof translationKind, docs.Translation>>().toEqualTypeOf<Fits>();
  expectTypeOf<Bounds<typeof translationGlossaryKind, docs.TranslationGlossary>>().toEqualTypeOf<Fits>();
  // The customization kinds' states keep any declared section (a loose object); their ids are the outputs.
  expectTypeOf<DeclaredOutputs<docs.SiteCustomization>>().toExtend<StateOf<typeof siteCustomizationKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteSpaceCustomization>>().toExtend<StateOf<typeof siteSpaceCustomizationKind>>();
});

it("types an output that echoes an input as exactly as the input", () => {
  type Level = "read" | "comment" | "review" | "edit" | "create" | "admin" | "inherit";
  // The state reads any string (a level the API adds later); the class says what a program can declare, and `null`.
  expectTypeOf<docs.Collection["defaultLevel"]>().toEqualTypeOf<pulumi.Output<Level | null>>();
  expectTypeOf<DeclaredOutputs<docs.Collection>["defaultLevel"]>().toEqualTypeOf<
    Exclude<InputsOf<typeof collectionKind>["defaultLevel"], undefined>
  >();
  // Not declared, the role reads as the API's default member role: still one of the two.
  expectTypeOf<docs.TeamMember["role"]>().toEqualTypeOf<pulumi.Output<"owner" | "member">>();
  // A language left out reads `null`, which the argument does not take.
  expectTypeOf<DeclaredOutputs<docs.Space>["language"]>().toEqualTypeOf<docs.Language | null>();
  expectTypeOf<DeclaredOutputs<docs.SpacePermission>["role"]>().toEqualTypeOf<docs.Role>();
});

it("accepts Outputs at any depth of an argument, an Output of a whole union included", () => {
  const enabled = {} as pulumi.Output<boolean>;
  const theme = {} as pulumi.Output<docs.StylingTheme>;
  const color = {} as pulumi.Output<string>;
  const args: docs.SiteCustomizationArgs = {
    siteId: "site",
    feedback: { enabled },
    styling: { theme, primaryColor: { light: color, dark: "#000000" } },
    header: { links: [{ title: "Status", to: { kind: "url", url: color } }] },
  };
  expectTypeOf(args).toExtend<docs.SiteCustomizationArgs>();
  // @ts-expect-error a section's field keeps its type through the Outputs
  const wrong: docs.SiteCustomizationArgs = { siteId: "site", styling: { theme: "loud" } };
  expectTypeOf(wrong).toExtend<docs.SiteCustomizationArgs>();
});
