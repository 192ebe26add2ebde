/**
 * The integration catalogue (`listIntegrations`, filtered by `search` on the name and title; `getIntegrationByName`),
 * and integration installations of organizations: install, get, update, uninstall, and the organization's listing
 * (`listOrganizationInstallations`, each installation with its integration, filtered by `search` on the name).
 *
 * The integrations are the catalogue's (integrationCatalogue.ts): another name is a 404. The store checks a
 * configuration against the integration's schema and replaces the stored one with it. The official document admits
 * user tokens only to the uninstall (`security: "user"`).
 *
 * Space installations: the same under `…/spaces` (the create's body names `space`, not `spaceId`); a deleted space's
 * installations are not listed.
 *
 * Site installations: list, install, get, update, uninstall under an organization installation (`site` rendered as
 * the site's id, the form without `extended`); only sites of the installation's organization, only integrations with
 * a site configuration. Deleting a site or uninstalling the organization installation removes them.
 */
import { NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route, RouteContext } from "../../types";
import { arr, oneOfValues, opt, parseBody, queryString, record, req, str } from "../../validate";
import { created, deleted, ok, param, requireOrg } from "../common";
import type { OrgRec } from "../organization/records";
import { INTEGRATION_CATALOGUE } from "./integrationCatalogue";
import type { IntegrationInstallationRec } from "./records";
import {
  renderIntegration,
  renderIntegrationInstallation,
  renderIntegrationSiteInstallation,
  renderIntegrationSpaceInstallation,
} from "./render";

const selection = oneOfValues(["all", "selected"] as const);

/** Open JSON: the store checks it against the integration's schema. */
const configuration = record((value: unknown) => value);

function requireInstallation(ctx: RouteContext): IntegrationInstallationRec {
  return ctx.store.integrationStore.requireInstallation(param(ctx, "integrationName"), param(ctx, "installationId"));
}

const installationPath = "/v1/integrations/{integrationName}/installations/{installationId}";
const sitesPath = `${installationPath}/sites`;
const sitePath = `${sitesPath}/{siteId}`;
const spacesPath = `${installationPath}/spaces`;
const spacePath = `${spacesPath}/{spaceId}`;

/**
 * The catalogue's publisher, which the official `Integration` requires as `owner`: the emulator's first organization
 * stands in for the publishers of the real catalogue.
 */
function publisher(ctx: RouteContext): OrgRec {
  const [first] = ctx.store.orgs.values();
  if (!first) throw new NotFoundError("The emulator has no organization to publish its integrations");
  return first;
}

export const integrationRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/integrations",
    handler: (ctx) => {
      const search = queryString(ctx.query, "search");
      const found = INTEGRATION_CATALOGUE.filter(
        (integration) =>
          search === undefined ||
          `${integration.name} ${integration.title}`.toLowerCase().includes(search.toLowerCase()),
      );
      const owner = publisher(ctx);
      return ok(
        paginate(
          ctx,
          [...found],
          (integration) => renderIntegration(ctx.env, ctx.store, integration, owner),
          (integration) => integration.name,
        ),
      );
    },
  },
  {
    method: "GET",
    path: "/v1/integrations/{integrationName}",
    handler: (ctx) => {
      const integration = ctx.store.integrationStore.requireIntegration(param(ctx, "integrationName"));
      return ok(renderIntegration(ctx.env, ctx.store, integration, publisher(ctx)));
    },
  },
  {
    method: "POST",
    path: "/v1/integrations/{integrationName}/installations",
    handler: (ctx) => {
      const body = parseBody(ctx.body, { organization: req(str({ min: 1 })) }, { required: true });
      const org = ctx.store.orgs.get(body.organization);
      if (!org) throw new NotFoundError(`Organization "${body.organization}" not found`);
      const installation = ctx.store.integrationStore.install(org.id, param(ctx, "integrationName"));
      const rendered = renderIntegrationInstallation(ctx.env, installation);
      return created(rendered, (rendered.urls as { location: string }).location);
    },
  },
  {
    method: "GET",
    path: installationPath,
    handler: (ctx) => ok(renderIntegrationInstallation(ctx.env, requireInstallation(ctx))),
  },
  {
    method: "PATCH",
    path: installationPath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const body = parseBody(
        ctx.body,
        {
          externalIds: opt(arr(str(), { max: 5 })),
          configuration: opt(configuration),
          space_selection: opt(selection),
          site_selection: opt(selection),
        },
        { required: true },
      );
      ctx.store.integrationStore.update(installation, {
        configuration: body.configuration,
        externalIds: body.externalIds,
        spaceSelection: body.space_selection,
        siteSelection: body.site_selection,
      });
      return ok(renderIntegrationInstallation(ctx.env, installation));
    },
  },
  {
    method: "DELETE",
    path: installationPath,
    security: "user",
    handler: (ctx) => {
      const name = param(ctx, "integrationName");
      ctx.store.integrationStore.requireIntegration(name);
      const installation = ctx.store.integrationInstallations.get(param(ctx, "installationId"));
      if (!installation || installation.integrationName !== name) return deleted(false);
      return deleted(ctx.store.integrationStore.uninstall(installation.id));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/installations",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const search = queryString(ctx.query, "search");
      const installations = [...ctx.store.integrationInstallations.values()].filter(
        (installation) =>
          installation.orgId === org.id && (search === undefined || installation.integrationName.includes(search)),
      );
      return ok(
        paginate(ctx, installations, (installation) => {
          const integration = INTEGRATION_CATALOGUE.find((known) => known.name === installation.integrationName);
          return {
            installation: renderIntegrationInstallation(ctx.env, installation),
            ...(integration ? { integration: renderIntegration(ctx.env, ctx.store, integration, org) } : {}),
          };
        }),
      );
    },
  },
  {
    method: "GET",
    path: sitesPath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const sites = ctx.store.integrationStore.sitesOf(installation.id);
      return ok(
        paginate(
          ctx,
          sites,
          (site) => renderIntegrationSiteInstallation(ctx.env, installation, site),
          (site) => site.siteId,
        ),
      );
    },
  },
  {
    method: "POST",
    path: sitesPath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const body = parseBody(ctx.body, { siteId: req(str({ min: 1 })) }, { required: true });
      const site = ctx.store.integrationStore.installOnSite(
        installation,
        ctx.store.sites.get(body.siteId),
        body.siteId,
      );
      const rendered = renderIntegrationSiteInstallation(ctx.env, installation, site);
      return created(rendered, (rendered.urls as { location: string }).location);
    },
  },
  {
    method: "GET",
    path: sitePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const site = ctx.store.integrationStore.requireSiteInstallation(installation, param(ctx, "siteId"));
      return ok(renderIntegrationSiteInstallation(ctx.env, installation, site));
    },
  },
  {
    method: "PATCH",
    path: sitePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const site = ctx.store.integrationStore.requireSiteInstallation(installation, param(ctx, "siteId"));
      const body = parseBody(
        ctx.body,
        { externalIds: opt(arr(str(), { max: 5 })), configuration: opt(configuration) },
        { required: true },
      );
      ctx.store.integrationStore.updateSiteInstallation(installation, site, body);
      return ok(renderIntegrationSiteInstallation(ctx.env, installation, site));
    },
  },
  {
    method: "DELETE",
    path: sitePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      return deleted(ctx.store.integrationStore.uninstallFromSite(installation.id, param(ctx, "siteId")));
    },
  },
  {
    method: "GET",
    path: spacesPath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const spaces = ctx.store.integrationStore.spacesOf(installation.id);
      return ok(
        paginate(
          ctx,
          spaces,
          (space) => renderIntegrationSpaceInstallation(ctx.env, installation, space),
          (space) => space.spaceId,
        ),
      );
    },
  },
  {
    method: "POST",
    path: spacesPath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const body = parseBody(ctx.body, { space: req(str({ min: 1 })) }, { required: true });
      const space = ctx.store.integrationStore.installOnSpace(
        installation,
        ctx.store.spaces.get(body.space),
        body.space,
      );
      const rendered = renderIntegrationSpaceInstallation(ctx.env, installation, space);
      return created(rendered, (rendered.urls as { location: string }).location);
    },
  },
  {
    method: "GET",
    path: spacePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const space = ctx.store.integrationStore.requireSpaceInstallation(installation, param(ctx, "spaceId"));
      return ok(renderIntegrationSpaceInstallation(ctx.env, installation, space));
    },
  },
  {
    method: "PATCH",
    path: spacePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const space = ctx.store.integrationStore.requireSpaceInstallation(installation, param(ctx, "spaceId"));
      const body = parseBody(
        ctx.body,
        { externalIds: opt(arr(str(), { max: 5 })), configuration: opt(configuration) },
        { required: true },
      );
      ctx.store.integrationStore.updateSpaceInstallation(installation, space, body);
      return ok(renderIntegrationSpaceInstallation(ctx.env, installation, space));
    },
  },
  {
    method: "DELETE",
    path: spacePath,
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      return deleted(ctx.store.integrationStore.uninstallFromSpace(installation.id, param(ctx, "spaceId")));
    },
  },
];
