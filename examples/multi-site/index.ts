/**
 * Several product docs sites from one typed list: each entry becomes a ProductDocs component (a site, its sections,
 * links to pages elsewhere and, for sites in review, a share link). Adding a product is adding an entry; the compiler checks its shape.
 *
 * The sites show existing spaces, found by title with `docs.getSpaceOutput` (a lookup: no ids copied from `curl`).
 * Stack config: `docs:organizationId`. The API token: `docs:apiToken` (secret) or DOCS_API_TOKEN.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

/** The spaces the sites publish, by the names used below. */
type SpaceName = "guides" | "api" | "changelog" | "handbook";

/** Each space's title in the organization (these are the emulator's fixture spaces); a lookup finds its id. */
const spaceTitles: Record<SpaceName, string> = {
  guides: "Product Guide",
  api: "API Reference",
  changelog: "Changelog",
  handbook: "Team Handbook",
};

interface SectionSpec {
  title: string;
  space: SpaceName;
  /** An icon name, as in the web app. */
  icon?: string;
}

interface ProductSite {
  /** Unique among the products: it names the Pulumi resources, so renaming it replaces them. */
  key: string;
  title: string;
  visibility: "public" | "unlisted" | "share-link";
  /** The first section is the site's default. */
  sections: SectionSpec[];
  /** Give reviewers a secret link to the site. */
  shareWithReviewers?: boolean;
  /** Links in the site's navigation to pages elsewhere, after the sections. */
  links?: { title: string; url: string }[];
  /** The site's AI: MCP servers its assistant may call for readers, and instructions for the editing agent. */
  ai?: { mcpServers: { key: string; name: string; url: string }[]; editingInstructions: string };
  /** The Google Analytics property (`G-…`) that counts the site's readers. */
  googleAnalyticsId?: string;
}

/** The token the ticket search MCP server expects, from secret config (`pulumi config set --secret ticketsToken`). */
const ticketsToken = new pulumi.Config().getSecret("ticketsToken");

const products: ProductSite[] = [
  {
    key: "platform",
    title: "Acme Platform",
    visibility: "public",
    sections: [
      { title: "Guides", space: "guides", icon: "book" },
      { title: "API reference", space: "api", icon: "code" },
    ],
    links: [{ title: "Status", url: "https://status.acme.example" }],
    googleAnalyticsId: "G-ACME0PLATFORM",
    ai: {
      mcpServers: [{ key: "tickets", name: "Ticket search", url: "https://mcp.acme.example/tickets" }],
      editingInstructions: "Write in US English.\nKeep code samples in TypeScript.",
    },
  },
  {
    key: "mobile",
    title: "Acme Mobile",
    visibility: "public",
    sections: [{ title: "Release notes", space: "changelog" }],
  },
  {
    key: "internal",
    title: "Acme Internal",
    visibility: "share-link",
    sections: [{ title: "Handbook", space: "handbook" }],
    shareWithReviewers: true,
  },
];

interface ProductDocsArgs {
  product: ProductSite;
  spaces: Record<SpaceName, pulumi.Input<string>>;
  googleAnalytics: docs.IntegrationInstallation;
}

/** One product's docs site: the site, one section per entry (the first is the default) and an optional share link. */
class ProductDocs extends pulumi.ComponentResource {
  readonly siteId: pulumi.Output<string>;
  readonly url: pulumi.Output<string | undefined>;
  readonly reviewUrl?: pulumi.Output<string | null>;

  constructor(name: string, args: ProductDocsArgs, opts?: pulumi.ComponentResourceOptions) {
    super("acme:docs:ProductDocs", name, {}, opts);
    const { product, spaces, googleAnalytics } = args;
    const child = { parent: this };
    const site = new docs.Site(name, { title: product.title, visibility: product.visibility, published: true }, child);
    const sections = product.sections.map(
      (section, index) =>
        new docs.SiteSection(
          `${name}-${section.space}`,
          {
            siteId: site.id,
            spaceId: spaces[section.space],
            title: section.title,
            icon: section.icon,
            ...(index === 0 ? { default: true } : {}),
          },
          child,
        ),
    );
    // A link needs a site with sections: depending on them saves the link's create from waiting for the first one.
    for (const link of product.links ?? []) {
      const key = link.title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      new docs.SiteExternalLink(`${name}-${key}`, { siteId: site.id, ...link }, { ...child, dependsOn: sections });
    }
    for (const server of product.ai?.mcpServers ?? []) {
      // Headers are secrets: the state keeps them encrypted and errors never show them.
      const headers = ticketsToken && { Authorization: pulumi.interpolate`Bearer ${ticketsToken}` };
      new docs.SiteMcpServer(
        `${name}-${server.key}`,
        { siteId: site.id, name: server.name, url: server.url, headers },
        child,
      );
    }
    if (product.ai) {
      const { editingInstructions } = product.ai;
      new docs.SiteAgentSettings(`${name}-agent`, { siteId: site.id, editingInstructions }, child);
    }
    if (product.googleAnalyticsId) {
      new docs.IntegrationSiteInstallation(
        `${name}-analytics`,
        {
          siteId: site.id,
          installationId: googleAnalytics.id,
          integrationName: googleAnalytics.integrationName,
          configuration: { tracking_id: product.googleAnalyticsId },
        },
        child,
      );
    }
    if (product.shareWithReviewers) {
      this.reviewUrl = new docs.SiteShareLink(`${name}-reviewers`, { siteId: site.id, name: "Reviewers" }, child).url;
    }
    this.siteId = site.id;
    this.url = site.urls.apply((urls) => urls.published ?? urls.app);
    this.registerOutputs({ siteId: this.siteId, url: this.url });
  }
}

// Lookups run at preview too (they only read): a title that matches no space, or several, fails the preview.
const spaces = Object.fromEntries(
  Object.entries(spaceTitles).map(([name, title]) => [name, docs.getSpaceOutput({ title }).id]),
) as Record<SpaceName, pulumi.Output<string>>;
// Google Analytics, installed once in the organization and turned on site by site (`selected`), each with its property.
const googleAnalytics = new docs.IntegrationInstallation("google-analytics", {
  integrationName: "googleanalytics",
  siteSelection: "selected",
});
const sites = products.map((product) => new ProductDocs(product.key, { product, spaces, googleAnalytics }));

// The guides in French: the API translates their space into a French one (`resultSpaceId`), following the glossary.
// Running a translation is an action: a new `release` value runs it again on the next `up`.
const guidesInFrench = new docs.Translation("guides-fr", {
  sourceSpaceId: spaces.guides,
  sourceLanguage: "en",
  language: "fr",
  instructions: "Address readers with vous.\nKeep product names in English.",
  runTrigger: { release: "2026.11" },
});
// The whole glossary: an entry added in the app is deleted by the next `up` (declare it here instead).
new docs.TranslationGlossary("glossary", {
  sourceLanguage: "en",
  entries: [
    { term: "workspace", translations: { fr: "espace de travail" } },
    { term: "Acme Platform", translations: { fr: "Acme Platform" } },
  ],
});
// The handbook is written in a GitHub repository (docs as code): Git Sync imports its commits (`priority: "git"`)
// and exports edits made in GitBook. Set `handbookRepositoryId`, the repository's numeric id, to turn it on.
const handbookRepositoryId = new pulumi.Config().getNumber("handbookRepositoryId");
if (handbookRepositoryId !== undefined) {
  new docs.GitSyncInstallation("handbook-git", {
    provider: "github",
    spaceId: spaces.handbook,
    repositoryId: handbookRepositoryId,
    branch: "main",
    priority: "git",
  });
}
export const frenchGuidesSpaceId = guidesInFrench.resultSpaceId;

export const siteUrls = Object.fromEntries(sites.map((site, i) => [products[i]!.key, site.url]));
export const reviewUrls = sites.filter((site) => site.reviewUrl).map((site) => site.reviewUrl);
