/**
 * Integration installations of organizations: the catalogue decides which names exist and what their configuration
 * may hold. A configuration is checked against the integration's schema: a declared key of the wrong type or outside
 * its enum, or a required key missing, is a 400 naming `configuration.<key>` and never quoting the value (it may be a
 * credential). Keys the schema does not declare are kept: integrations store keys of their own there.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Tables } from "../../tables";
import type { SpaceRec } from "../content/records";
import type { SiteRec } from "../sites/records";
import { type CatalogueIntegration, type ConfigurationSchema, catalogueIntegration } from "./integrationCatalogue";
import type {
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
} from "./records";

type Selection = IntegrationInstallationRec["siteSelection"];

export class IntegrationStore {
  private readonly tables: Tables;

  constructor(tables: Tables) {
    this.tables = tables;
  }

  /** The integration of `name`; an unknown name is the API's 404. */
  requireIntegration(name: string): CatalogueIntegration {
    const integration = catalogueIntegration(name);
    if (!integration) throw new NotFoundError(`Integration "${name}" not found`);
    return integration;
  }

  install(orgId: string, integrationName: string): IntegrationInstallationRec {
    this.requireIntegration(integrationName);
    const now = this.tables.now();
    const installation: IntegrationInstallationRec = {
      id: this.tables.newId(),
      orgId,
      integrationName,
      // Pending until its required configuration is set, as the document's status enum suggests.
      status: "pending",
      spaceSelection: "selected",
      siteSelection: "selected",
      configuration: {},
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    };
    installation.status = this.statusOf(installation);
    this.tables.integrationInstallations.set(installation.id, installation);
    return installation;
  }

  /** The installation of that integration; one of another integration is not found. */
  requireInstallation(integrationName: string, id: string): IntegrationInstallationRec {
    this.requireIntegration(integrationName);
    const installation = this.tables.integrationInstallations.get(id);
    if (!installation || installation.integrationName !== integrationName) {
      throw new NotFoundError(`Installation "${id}" of integration "${integrationName}" not found`);
    }
    return installation;
  }

  /** The configuration, when sent, replaces the stored one (the document is silent: replace is the strict choice). */
  update(
    installation: IntegrationInstallationRec,
    patch: {
      configuration?: Record<string, unknown>;
      externalIds?: string[];
      spaceSelection?: Selection;
      siteSelection?: Selection;
    },
  ): IntegrationInstallationRec {
    if (patch.configuration !== undefined) {
      checkConfiguration(this.requireIntegration(installation.integrationName).account, patch.configuration);
      installation.configuration = { ...patch.configuration };
    }
    if (patch.externalIds !== undefined) installation.externalIds = [...patch.externalIds];
    if (patch.spaceSelection !== undefined) installation.spaceSelection = patch.spaceSelection;
    if (patch.siteSelection !== undefined) installation.siteSelection = patch.siteSelection;
    installation.status = this.statusOf(installation);
    installation.updatedAt = this.tables.now();
    return installation;
  }

  /** Uninstalling removes the installation's site installations with it. */
  uninstall(id: string): boolean {
    return this.tables.remove("integrationInstallations", id);
  }

  /**
   * Enables the installation on a site of its organization (404 for another organization's site). An integration
   * without a site configuration cannot be installed on sites (400). Installing it again answers the installation
   * there, unchanged: the document lists no conflict.
   */
  installOnSite(installation: IntegrationInstallationRec, site: SiteRec | undefined, siteId: string) {
    if (!site || site.orgId !== installation.orgId) {
      throw new NotFoundError(`Site "${siteId}" not found in organization "${installation.orgId}"`);
    }
    if (!this.requireIntegration(installation.integrationName).site) {
      throw new BadRequestError(`siteId: integration "${installation.integrationName}" cannot be installed on sites`);
    }
    const key = `${installation.id}/${site.id}`;
    const existing = this.tables.integrationSiteInstallations.get(key);
    if (existing) return existing;
    const created: IntegrationSiteInstallationRec = {
      installationId: installation.id,
      siteId: site.id,
      configuration: {},
      externalIds: [],
    };
    this.tables.integrationSiteInstallations.set(key, created);
    return created;
  }

  requireSiteInstallation(installation: IntegrationInstallationRec, siteId: string): IntegrationSiteInstallationRec {
    const found = this.tables.integrationSiteInstallations.get(`${installation.id}/${siteId}`);
    if (!found) throw new NotFoundError(`Installation "${installation.id}" is not installed on site "${siteId}"`);
    return found;
  }

  /** The configuration, when sent, replaces the stored one, checked against the integration's site schema. */
  updateSiteInstallation(
    installation: IntegrationInstallationRec,
    site: IntegrationSiteInstallationRec,
    patch: { configuration?: Record<string, unknown>; externalIds?: string[] },
  ): IntegrationSiteInstallationRec {
    if (patch.configuration !== undefined) {
      const schema = this.requireIntegration(installation.integrationName).site ?? { properties: {} };
      checkConfiguration(schema, patch.configuration);
      site.configuration = { ...patch.configuration };
    }
    if (patch.externalIds !== undefined) site.externalIds = [...patch.externalIds];
    return site;
  }

  uninstallFromSite(installationId: string, siteId: string): boolean {
    return this.tables.remove("integrationSiteInstallations", `${installationId}/${siteId}`);
  }

  /** As on sites; a deleted space's installations are not listed (a restored space has them again). */
  installOnSpace(installation: IntegrationInstallationRec, space: SpaceRec | undefined, spaceId: string) {
    if (!space || space.deletedAt || space.orgId !== installation.orgId) {
      throw new NotFoundError(`Space "${spaceId}" not found in organization "${installation.orgId}"`);
    }
    if (!this.requireIntegration(installation.integrationName).space) {
      throw new BadRequestError(`space: integration "${installation.integrationName}" cannot be installed on spaces`);
    }
    const key = `${installation.id}/${space.id}`;
    const existing = this.tables.integrationSpaceInstallations.get(key);
    if (existing) return existing;
    const created: IntegrationSpaceInstallationRec = {
      installationId: installation.id,
      spaceId: space.id,
      configuration: {},
      externalIds: [],
    };
    this.tables.integrationSpaceInstallations.set(key, created);
    return created;
  }

  requireSpaceInstallation(installation: IntegrationInstallationRec, spaceId: string): IntegrationSpaceInstallationRec {
    const found = this.tables.integrationSpaceInstallations.get(`${installation.id}/${spaceId}`);
    if (!found || this.tables.spaces.get(spaceId)?.deletedAt) {
      throw new NotFoundError(`Installation "${installation.id}" is not installed on space "${spaceId}"`);
    }
    return found;
  }

  updateSpaceInstallation(
    installation: IntegrationInstallationRec,
    space: IntegrationSpaceInstallationRec,
    patch: { configuration?: Record<string, unknown>; externalIds?: string[] },
  ): IntegrationSpaceInstallationRec {
    if (patch.configuration !== undefined) {
      const schema = this.requireIntegration(installation.integrationName).space ?? { properties: {} };
      checkConfiguration(schema, patch.configuration);
      space.configuration = { ...patch.configuration };
    }
    if (patch.externalIds !== undefined) space.externalIds = [...patch.externalIds];
    return space;
  }

  uninstallFromSpace(installationId: string, spaceId: string): boolean {
    return this.tables.remove("integrationSpaceInstallations", `${installationId}/${spaceId}`);
  }

  spacesOf(installationId: string): IntegrationSpaceInstallationRec[] {
    return [...this.tables.integrationSpaceInstallations.values()].filter(
      (s) => s.installationId === installationId && !this.tables.spaces.get(s.spaceId)?.deletedAt,
    );
  }

  sitesOf(installationId: string): IntegrationSiteInstallationRec[] {
    return [...this.tables.integrationSiteInstallations.values()].filter((s) => s.installationId === installationId);
  }

  private statusOf(installation: IntegrationInstallationRec): IntegrationInstallationRec["status"] {
    const required = this.requireIntegration(installation.integrationName).account.required ?? [];
    return required.every((key) => installation.configuration[key] !== undefined) ? "active" : "pending";
  }
}

/** Never quotes a value: configurations hold credentials. */
function checkConfiguration(schema: ConfigurationSchema, configuration: Record<string, unknown>): void {
  for (const key of schema.required ?? []) {
    if (configuration[key] === undefined) throw new BadRequestError(`configuration.${key}: is required`);
  }
  for (const [key, value] of Object.entries(configuration)) {
    const property = schema.properties[key];
    if (!property) continue;
    if (typeof value !== property.type) {
      throw new BadRequestError(`configuration.${key}: must be a ${property.type} (${property.title})`);
    }
    if (property.type === "string" && property.enum && !property.enum.includes(value as string)) {
      throw new BadRequestError(`configuration.${key}: must be one of ${property.enum.join(", ")}`);
    }
  }
}
