import type * as pulumi from "@pulumi/pulumi";
import { expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type * as docs from "../../provider";
import type { collectionKind } from "../../provider/resources/collection";
import type { openApiSpecKind } from "../../provider/resources/openApiSpec";
import type { samlProviderKind } from "../../provider/resources/samlProvider";
import type { siteKind } from "../../provider/resources/site";
import type { siteAdaptiveSchemaKind } from "../../provider/resources/siteAdaptiveSchema";
import type { siteRedirectKind } from "../../provider/resources/siteRedirect";
import type { siteRedirectsKind } from "../../provider/resources/siteRedirects";
import type { siteSectionKind } from "../../provider/resources/siteSection";
import type { siteSectionGroupKind } from "../../provider/resources/siteSectionGroup";
import type { siteShareLinkKind } from "../../provider/resources/siteShareLink";
import type { siteSpaceKind } from "../../provider/resources/siteSpace";
import type { teamKind } from "../../provider/resources/team";
import type { teamMemberKind } from "../../provider/resources/teamMember";

/** What a kind's state schema says its outputs are. */
type StateOf<K> = K extends { state: z.ZodType<infer S, unknown> } ? S : never;
/** What the generated class declares: its Output properties, without the id and urn every resource has. */
type DeclaredOutputs<C> = {
  -readonly [K in keyof C as K extends "id" | "urn"
    ? never
    : C[K] extends pulumi.OutputInstance<unknown>
      ? K
      : never]: C[K] extends pulumi.OutputInstance<infer T> ? T : never;
};

/**
 * Compile-time proof (tsc checks this file; `npm run typecheck`) that each generated class declares exactly the
 * outputs its state schema produces: the generated file cannot drift from the schemas without failing typecheck.
 */
it("types each class's outputs exactly as its state schema", () => {
  expectTypeOf<DeclaredOutputs<docs.Collection>>().toEqualTypeOf<StateOf<typeof collectionKind>>();
  expectTypeOf<DeclaredOutputs<docs.SamlProvider>>().toEqualTypeOf<StateOf<typeof samlProviderKind>>();
  expectTypeOf<DeclaredOutputs<docs.Team>>().toEqualTypeOf<StateOf<typeof teamKind>>();
  expectTypeOf<DeclaredOutputs<docs.TeamMember>>().toEqualTypeOf<StateOf<typeof teamMemberKind>>();
  expectTypeOf<DeclaredOutputs<docs.OpenApiSpec>>().toEqualTypeOf<StateOf<typeof openApiSpecKind>>();
  expectTypeOf<DeclaredOutputs<docs.Site>>().toEqualTypeOf<StateOf<typeof siteKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteSection>>().toEqualTypeOf<StateOf<typeof siteSectionKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteSectionGroup>>().toEqualTypeOf<StateOf<typeof siteSectionGroupKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteSpace>>().toEqualTypeOf<StateOf<typeof siteSpaceKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteShareLink>>().toEqualTypeOf<StateOf<typeof siteShareLinkKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteAdaptiveSchema>>().toEqualTypeOf<StateOf<typeof siteAdaptiveSchemaKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteRedirect>>().toEqualTypeOf<StateOf<typeof siteRedirectKind>>();
  expectTypeOf<DeclaredOutputs<docs.SiteRedirects>>().toEqualTypeOf<StateOf<typeof siteRedirectsKind>>();
});
