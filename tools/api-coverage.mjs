#!/usr/bin/env node
/**
 * How much of the official document the provider uses: the operations its requests matched during a test run
 * (the contract's `providerOperations`, test/support/contract.ts), against the document's operations that a user's
 * personal API token can call and that hold configuration, the durable state infrastructure as code manages.
 *
 *   node tools/api-coverage.mjs [summary.json]   (default: the kept .e2e/contract/run-*\/summary.json using the most operations)
 *
 * Writes a Markdown report to stdout. Which operations are not configuration is a judgement, kept here as rules with
 * their reasons, so that the report says why each operation is out rather than a count without one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const document = require("@gitbook/api/spec/openapi.json");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Not configuration, by the operation's first tag. */
const TAGS = {
  "content and its review (edited in the app or synced by Git Sync, not declared)": [
    "space-content",
    "change-requests",
    "change-requests-reviews",
    "change-request-reviewers",
    "change-request-conversations",
    "change-request-comments",
    "change-request-contributors",
    "change-request-content",
    "space-comments",
    "space-comment",
    "space-embeds",
    "imports",
  ],
  "readers' questions, answers, analytics and the agent's work (produced by use, not declared)": [
    "organization-ask",
    "site-ask",
    "site-ai",
    "site-questions",
    "site-insights",
    "site-agent-feedback",
  ],
  "lookups of published content and of names (no state of their own)": ["urls", "subdomains", "system", "site-preview"],
  "the caller's own account and the organization's bill": ["users", "billing"],
  "invitations (one-shot messages to people; membership is granted by SSO, teams and roles)": ["organization-invites"],
};

/** Not configuration, by operationId: actions and runtime records inside otherwise configuration tags. */
const OPERATIONS = [
  [
    "actions, not state (each run does something again; nothing to converge on)",
    /^(duplicate|restore|applyTemplate|sync|test|createSiteStyleguideRun|prewarm|triggerChangeRequests|importGitRepository|exportToGitRepository|joinOrganization|updateOrganizationMemberLastSeenAt)/,
  ],
  [
    "the agent's records, scans, findings, topics and conversations (produced by use)",
    /SiteContextRecord|SiteScan|SiteFinding|ForSiteFinding|SiteTopic|AgentConversation|SiteStyleguideRuns/,
  ],
  ["search (a query, not state)", /^search|SearchIn/],
  [
    "history: audit events and the versions each upload of a spec makes (drift reads the audit events)",
    /AuditEvent|OpenAPISpecVersion/,
  ],
  ["invitations (one-shot messages to people; membership is granted by SSO, teams and roles)", /Invite/],
  ["lookups of published content and of names (no state of their own)", /^getPublishedContent/],
  [
    "building and running an integration (its developer's, not its installer's)",
    /^(publishIntegration|unpublishIntegration|setIntegrationDevelopmentMode|disableIntegrationDevelopmentMode|renderIntegration|queueIntegrationTask|createIntegrationInstallationToken|listIntegrationEvents|getIntegrationEvent)/,
  ],
  ["creating an organization (the provider manages one that exists)", /^createOrganization$/],
  [
    "a view of the caller's own access",
    /^(listOrganizationsForAuthenticatedUser|getOrganizationIntegrationStatus|listOrganizationIntegrationsStatus|listPermissionsAggregate)/,
  ],
  [
    "branches and files of a Git Sync repository (content, read by the app while it syncs)",
    /RepoBranches|ProjectBranches|RepoFile|ProjectFile|getSpaceGitInfo/,
  ],
];

const USER = "user";

/**
 * Of the runs kept (the last hour's), the one whose provider used the most operations: a whole suite, not one file
 * nor a long model run (many requests, fewer operations).
 */
function fullestSummary() {
  const dir = path.join(root, ".e2e/contract");
  const runs = existsSync(dir)
    ? readdirSync(dir)
        .map((entry) => path.join(dir, entry, "summary.json"))
        .filter((file) => existsSync(file))
        .map((file) => ({
          file,
          used: Object.keys(JSON.parse(readFileSync(file, "utf8")).providerOperations ?? {}).length,
        }))
        .sort((a, b) => b.used - a.used)
    : [];
  if (!runs[0]) throw new Error("no .e2e/contract/run-*/summary.json: run the tests first (npm test)");
  return runs[0].file;
}

const summaryFile = process.argv[2] ?? fullestSummary();
const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
if (!summary.providerOperations)
  throw new Error(`${summaryFile} has no providerOperations (a run before they were counted)`);
const used = new Set(Object.keys(summary.providerOperations).filter((op) => op !== "unmatched"));

const operations = [];
for (const [template, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (!operation?.operationId) continue;
    const schemes = (operation.security ?? document.security).flatMap((requirement) => Object.keys(requirement));
    const tag = operation.tags?.[0] ?? "(untagged)";
    const byTag = Object.entries(TAGS).find(([, tags]) => tags.includes(tag))?.[0];
    const byId = OPERATIONS.find(([, pattern]) => pattern.test(operation.operationId))?.[0];
    operations.push({
      id: operation.operationId,
      call: `${method.toUpperCase()} ${template}`,
      tag,
      userToken: schemes.includes(USER),
      outside: byTag ?? byId,
      used: used.has(operation.operationId),
    });
  }
}

/*
 * A single object's GET whose listing the provider uses is not needed: refresh reads each object from its parent's
 * listing (one request per parent, not one per object). Derived from the paths, so it names no operation.
 */
const usedListings = new Set(operations.filter((op) => op.used && op.call.startsWith("GET ")).map((op) => op.call));
for (const op of operations) {
  const listing = op.call.replace(/\/\{[^}]+\}$/, "");
  if (!op.outside && !op.used && op.call.startsWith("GET ") && listing !== op.call && usedListings.has(listing)) {
    op.unneeded = true;
  }
}

const reachable = operations.filter((op) => op.userToken);
const configuration = reachable.filter((op) => !op.outside);
const covered = configuration.filter((op) => op.used);
const out = [];
out.push(
  "# The official document's operations the provider uses",
  "",
  `From ${path.relative(root, summaryFile)} (the provider's requests in one test run) and @gitbook/api ${JSON.parse(readFileSync(path.join(root, "node_modules/@gitbook/api/package.json"), "utf8")).version}.`,
  "",
  "| operations | count |",
  "| --- | --- |",
  `| in the document | ${operations.length} |`,
  `| a user's personal token can call | ${reachable.length} |`,
  `| of those, configuration | ${configuration.length} |`,
  `| of those, used by the provider | **${covered.length}** |`,
  `| used by the provider, all told | ${operations.filter((op) => op.used).length} |`,
  "",
  `## Configuration operations not used (${configuration.length - covered.length})`,
  "",
);
const unneeded = configuration.filter((o) => !o.used && o.unneeded);
for (const op of configuration.filter((o) => !o.used && !o.unneeded))
  out.push(`- \`${op.id}\` (${op.call}, ${op.tag})`);
out.push(
  "",
  `and ${unneeded.length} reads of one object that the provider makes from its parent's listing instead (one ` +
    `request per parent): ${unneeded.map((op) => `\`${op.id}\``).join(", ")}.`,
);
out.push("", "## Left out as not configuration, by reason", "");
const reasons = new Map();
for (const op of reachable.filter((o) => o.outside)) reasons.set(op.outside, [...(reasons.get(op.outside) ?? []), op]);
for (const [reason, ops] of reasons) {
  const usedAnyway = ops.filter((op) => op.used).map((op) => op.id);
  out.push(
    `- ${reason}: ${ops.length}${usedAnyway.length ? ` (used all the same: ${usedAnyway.map((id) => `\`${id}\``).join(", ")})` : ""}`,
  );
}
const unreachable = operations.filter((op) => !op.userToken);
out.push(
  "",
  `Not callable with a user's personal token (${unreachable.length}: GitBook's staff, integrations' or OAuth tokens only): ${unreachable.map((op) => `\`${op.id}\``).join(", ")}.`,
  "",
);
process.stdout.write(out.join("\n"));
