/** The records of the integrations family's tables (declared in index.ts); routes render them (render.ts). */

/** An integration installed in an organization (official `IntegrationInstallation`). */
export interface IntegrationInstallationRec {
  id: string;
  orgId: string;
  /** The catalogue's integration (integrationCatalogue.ts): every path names it. */
  integrationName: string;
  status: "active" | "pending" | "paused";
  spaceSelection: "all" | "selected";
  siteSelection: "all" | "selected";
  /** Open JSON: what the program sends and what the integration writes itself. */
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** An organization installation enabled on one of its sites (official `IntegrationSiteInstallation`). */
export interface IntegrationSiteInstallationRec {
  installationId: string;
  siteId: string;
  /** Open JSON, checked against the integration's site-level schema. */
  configuration: Record<string, unknown>;
  externalIds: string[];
}

/** An organization installation enabled on one of its spaces (official `IntegrationSpaceInstallation`). */
export interface IntegrationSpaceInstallationRec {
  installationId: string;
  spaceId: string;
  /** Open JSON, checked against the integration's space-level schema. */
  configuration: Record<string, unknown>;
  externalIds: string[];
}
