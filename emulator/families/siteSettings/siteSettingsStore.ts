/**
 * What a site has besides its structure, one record or list per site: share links, the adaptive schema, the
 * customization, MCP servers, the agent settings and the publishing auth. Composed over the tables like every store
 * (store.ts); deleting the site deletes these with it (each table declares the site its parent, tables.ts).
 */
import { randomToken } from "../../ids";
import type { Tables } from "../../tables";
import type { SiteRec } from "../sites/records";
import type {
  AdaptiveSchemaRec,
  PublishingAuthRec,
  ShareLinkRec,
  SiteAgentSettings,
  SiteAgentSettingsRec,
  SiteCustomizationRec,
  SiteMcpServerRec,
} from "./records";

/** The settable fields of an MCP server (the official PATCH body; `null` removes the condition). */
export interface McpServerPatch {
  name?: string;
  url?: string;
  transport?: SiteMcpServerRec["transport"];
  /** Replaces the whole map (the official document does not say; see emulator/README.md). */
  headers?: Record<string, string>;
  condition?: string | null;
}

/**
 * What a new site's editor agent has: the official document gives no defaults, so these are the emulator's own
 * (emulator/README.md): topics scanned, change requests only for findings that can be fixed automatically, and
 * instructions that are one empty paragraph, as the editor writes an empty document.
 */
export function newSiteAgentSettings(): SiteAgentSettings {
  return {
    scans: { topics: "auto" },
    findings: { changeRequests: "auto-fixable" },
    editing: {
      customInstructions: {
        object: "document",
        data: {},
        nodes: [
          {
            object: "block",
            type: "paragraph",
            data: {},
            nodes: [{ object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] }],
          },
        ],
      },
    },
  };
}

export class SiteSettingsStore {
  private readonly tables: Tables;

  constructor(tables: Tables) {
    this.tables = tables;
  }

  /** A new active share link; its secret token is what `urls.published` carries. */
  createShareLink(site: SiteRec, name: string): ShareLinkRec {
    const link: ShareLinkRec = {
      id: this.tables.newId(),
      siteId: site.id,
      name,
      active: true,
      token: randomToken(32),
      createdAt: this.tables.now(),
    };
    this.tables.shareLinks.set(link.id, link);
    return link;
  }

  deleteShareLink(id: string): boolean {
    return this.tables.remove("shareLinks", id);
  }

  /** A site has at most one adaptive schema; a PUT replaces it whole. */
  setAdaptiveSchema(site: SiteRec, jsonSchema: unknown): AdaptiveSchemaRec {
    const rec: AdaptiveSchemaRec = {
      siteId: site.id,
      jsonSchema: structuredClone(jsonSchema),
      updatedAt: this.tables.now(),
    };
    this.tables.adaptiveSchemas.set(site.id, rec);
    return rec;
  }

  /** A site's customization is replaced whole (the PUT checks every required field). */
  setCustomization(site: SiteRec, settings: Record<string, unknown>): SiteCustomizationRec {
    const rec: SiteCustomizationRec = { siteId: site.id, settings, updatedAt: this.tables.now() };
    this.tables.siteCustomizations.set(site.id, rec);
    return rec;
  }

  /** A site's MCP servers, in the order they were added. */
  mcpServersOf(siteId: string): SiteMcpServerRec[] {
    return [...this.tables.mcpServers.values()].filter((m) => m.siteId === siteId);
  }

  /** A new MCP server; the official transport default is `sse`. Names need not be unique (the document says none). */
  addMcpServer(
    site: SiteRec,
    fields: Pick<SiteMcpServerRec, "name" | "url" | "headers" | "condition"> & {
      transport?: SiteMcpServerRec["transport"];
    },
  ): SiteMcpServerRec {
    const server: SiteMcpServerRec = {
      id: this.tables.newId(),
      siteId: site.id,
      name: fields.name,
      url: fields.url,
      transport: fields.transport ?? "sse",
      headers: { ...fields.headers },
    };
    if (fields.condition !== undefined) server.condition = fields.condition;
    this.tables.mcpServers.set(server.id, server);
    return server;
  }

  /** Only the given fields change ("Only provided fields are updated"); given headers replace the whole map. */
  updateMcpServer(server: SiteMcpServerRec, patch: McpServerPatch): void {
    if (patch.name !== undefined) server.name = patch.name;
    if (patch.url !== undefined) server.url = patch.url;
    if (patch.transport !== undefined) server.transport = patch.transport;
    if (patch.headers !== undefined) server.headers = { ...patch.headers };
    if (patch.condition !== undefined) server.condition = patch.condition ?? undefined;
  }

  deleteMcpServer(id: string): boolean {
    return this.tables.remove("mcpServers", id);
  }

  /** Every site has agent settings: the last PUT's, or the new-site values (not stored until a PUT). */
  agentSettings(site: SiteRec): SiteAgentSettingsRec {
    return this.tables.siteAgentSettings.get(site.id) ?? { siteId: site.id, settings: newSiteAgentSettings() };
  }

  /** The PUT replaces the settings whole (every part is required). */
  setAgentSettings(site: SiteRec, settings: SiteAgentSettings): SiteAgentSettingsRec {
    const rec: SiteAgentSettingsRec = {
      siteId: site.id,
      settings: structuredClone(settings),
      updatedAt: this.tables.now(),
    };
    this.tables.siteAgentSettings.set(site.id, rec);
    return rec;
  }

  /** A site's publishing auth, made on first use with a new signing key (the API always has one to show). */
  publishingAuth(site: SiteRec): PublishingAuthRec {
    let rec = this.tables.publishingAuths.get(site.id);
    if (!rec) {
      rec = { siteId: site.id, backend: "custom", privateKey: randomToken(48) };
      this.tables.publishingAuths.set(site.id, rec);
    }
    return rec;
  }

  /** A new signing key: what the old one signed no longer verifies. */
  regeneratePublishingKey(site: SiteRec): PublishingAuthRec {
    const rec = this.publishingAuth(site);
    rec.privateKey = randomToken(48);
    return rec;
  }
}
