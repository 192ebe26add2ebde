/** The records of the siteSettings family's tables (declared in index.ts); routes render them (render.ts). */

export interface ShareLinkRec {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  token: string;
  createdAt: string;
}

export interface SiteCustomizationRec {
  siteId: string;
  settings: Record<string, unknown>;
  updatedAt: string;
}

/** A Model Context Protocol server whose tools the site's AI Assistant may call (official `SiteMcpServer`). */
export interface SiteMcpServerRec {
  id: string;
  siteId: string;
  name: string;
  url: string;
  transport: "sse" | "http";
  /** Sent to the server with every request; values are secrets (API keys), the API echoes them in its answers. */
  headers: Record<string, string>;
  condition?: string;
}

/** The official `SiteAgentSettingsInput` (the editor's AI agent), as the last PUT sent it. */
export interface SiteAgentSettings {
  scans: { topics: "auto" | "never" };
  findings: { changeRequests: "always" | "auto-fixable" | "never" };
  /** `customInstructions` is a JSONDocument, kept as sent. */
  editing: { customInstructions: Record<string, unknown> };
}

export interface SiteAgentSettingsRec {
  siteId: string;
  settings: SiteAgentSettings;
  /** Absent: never written, the new-site values. */
  updatedAt?: string;
}

export interface PublishingAuthRec {
  siteId: string;
  backend: "custom" | "integration";
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

export interface AdaptiveSchemaRec {
  siteId: string;
  jsonSchema: unknown;
  updatedAt: string;
}

export const SITE_CHANNEL_TYPES = ["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"] as const;
export const SITE_CHANNEL_ROLES = ["collaborator", "support"] as const;
export type SiteChannelType = (typeof SITE_CHANNEL_TYPES)[number];
export type SiteChannelRole = (typeof SITE_CHANNEL_ROLES)[number];

export interface SiteChannelRec {
  id: string;
  siteId: string;
  type: SiteChannelType;
  /** The type's `setupSettings`, as last sent. */
  setupSettings: Record<string, string[]>;
  role: SiteChannelRole;
  createdAt: string;
}

/** The official `ContextUsageSettings`. */
export interface ContextUsageSettingsRec {
  changeRequests: boolean;
  search: boolean;
  sync?: boolean;
  searchBoost: "x0.8" | "x1.0" | "x1.2";
}

/** A site's context connection (official `ContextConnection`): a source its docs agent reads. */
export interface SiteContextConnectionRec {
  id: string;
  siteId: string;
  /** `builtin:<name>` or `integration:<name>`. */
  connector: string;
  /** The connector's `setupSettings` as last sent, credentials included (they are redacted when rendered). */
  setupSettings?: Record<string, unknown>;
  usageSettings: ContextUsageSettingsRec;
  label?: string;
  filter?: string;
  createdAt: string;
}
