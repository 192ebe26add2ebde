/**
 * `docs-platform drift`: what changed outside the stack, who changed it, when and from where. The findings come from
 * the engine (`pulumi preview --refresh --json`: the resources whose refreshed state differs from the program, and
 * those whose object is gone) and from `unmanaged` (the objects no resource manages); the attribution from the
 * organization's audit trail since the stack's last successful update (`pulumi stack history`), one filtered
 * listing per organization. Nothing here runs a command or a request: main.ts gathers, this module reads and writes.
 */
import type { ApiAuditEvent } from "../provider/client";
import { isOn } from "../provider/framework/driftAttribution";
import { kindOfType } from "./provider";
import type { OrganizationObject } from "./unmanaged";

/** The version of the JSON report's shape (docs/drift-report.schema.json). */
export const DRIFT_REPORT_VERSION = 1;

/** Pages of 100 events read per organization at most: a window with more says which part is missing. */
export const MAX_AUDIT_PAGES = 20;

/** What a secret shows as, wherever it would be printed. */
export const SECRET = "[secret]";

/** One entry of `pulumi stack history --json`. */
export interface HistoryEntry {
  version?: number;
  kind?: string;
  result?: string;
  startTime?: string | number;
  endTime?: string | number;
}

/** A run of the stack's: its version, what it was and when it ran (ISO times). */
export interface StackRun {
  version: number;
  kind: string;
  result: string;
  startTime: string;
  endTime: string;
}

/**
 * A history time as an ISO string: the CLI prints `2026-11-28 20:01:02 +0000 UTC` (Go's time format), older ones
 * epoch seconds. Undefined when it cannot be read.
 */
export function historyTime(value: string | number | undefined): string | undefined {
  if (typeof value === "number") return new Date(value * 1000).toISOString();
  if (typeof value !== "string") return undefined;
  const go = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) ([+-]\d{2})(\d{2})/.exec(value);
  const ms = Date.parse(go ? `${go[1]}T${go[2]}${go[3]}:${go[4]}` : value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The runs of a history, newest first, those whose times cannot be read left out. */
export function stackRuns(history: HistoryEntry[]): StackRun[] {
  return history
    .flatMap((entry) => {
      const startTime = historyTime(entry.startTime);
      const endTime = historyTime(entry.endTime) ?? startTime;
      if (!startTime || !endTime) return [];
      return [{ version: entry.version ?? 0, kind: entry.kind ?? "", result: entry.result ?? "", startTime, endTime }];
    })
    .sort((a, b) => b.startTime.localeCompare(a.startTime) || b.version - a.version);
}

/** The last successful `update` of a history, and the updates that failed after it. */
export function lastSuccessfulUpdate(runs: StackRun[]): { update?: StackRun; failedAfter: StackRun[] } {
  const failedAfter: StackRun[] = [];
  for (const run of runs) {
    if (run.kind !== "update") continue;
    if (run.result === "succeeded") return { update: run, failedAfter };
    failedAfter.push(run);
  }
  return { failedAfter };
}

export interface PropertyChange {
  /** The property's path, as the engine's detailed diff names it (`title`, `customization.styling.theme`). */
  property: string;
  /** What the program declares (and the stack's last update set). */
  declared: unknown;
  /** What the object holds now. */
  actual: unknown;
}

export interface AttributedEvent {
  occurredAt: string;
  action: string;
  /** The actor's label (an email for a user) or, without one, its id. */
  actor: string;
  actorType: string;
  source: string;
  target: { type: string; id: string };
}

export type Attribution =
  /** Events on the target after the stack's last update. */
  | "attributed"
  /** The audit trail was read and holds no event on the target in the window. */
  | "outside-window"
  /** The audit trail could not be read (the notes say why), or the stack has no update to start a window from. */
  | "unavailable";

export interface Finding {
  type: "changed" | "deleted" | "unmanaged";
  /** The kind (`Site`). */
  kind: string;
  /** The object's id in the API, as the resource's id or `unmanaged` names it. */
  id: string;
  /** The resource's name in the program (changed, deleted), or the object's title (unmanaged). */
  name: string;
  urn?: string;
  organizationId?: string;
  /** Changed only: each property, declared → actual. */
  changes?: PropertyChange[];
  events: AttributedEvent[];
  attribution: Attribution;
  /** The command that puts the object back as the program declares it (changed, deleted). */
  revert: string;
  /** The change to the program that makes the finding the declared state. */
  adopt: string;
}

export interface AuditSummary {
  organizationId: string;
  /** Requests made (one per page of 100). */
  requests: number;
  /** Events read in the window. */
  events: number;
  /** Of those, the ones the stack's own runs made (told apart, never reported). */
  ownRunEvents: number;
  truncated: boolean;
  /** Why the trail could not be read, when it could not. */
  error?: string;
}

export interface DriftReport {
  version: typeof DRIFT_REPORT_VERSION;
  stack: string;
  generatedAt: string;
  /** The update the window starts from, absent when the stack has none. */
  lastUpdate?: StackRun;
  window?: { from: string; to: string };
  /** What the report could not do, or chose, once each (a failed last update, an audit trail it may not read). */
  notes: string[];
  audit: AuditSummary[];
  summary: { changed: number; deleted: number; unmanaged: number };
  findings: Finding[];
}

interface PreviewState {
  urn?: string;
  type?: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

interface PreviewStep {
  op?: string;
  urn?: string;
  oldState?: PreviewState;
  newState?: PreviewState;
  diffReasons?: string[];
  detailedDiff?: Record<string, unknown>;
}

/** The key that marks a secret in a state or a preview. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** A value with every secret replaced by `[secret]`. */
export function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== "object") return value;
  if (SECRET_SIGNATURE in value) return SECRET;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, masked(inner)]));
}

/** The value at a detailed diff's path (`a.b[0].c`, `a["b.c"]`) in `root`. */
function at(root: unknown, path: string): unknown {
  const keys = [...path.matchAll(/\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|([^.[\]]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  let value: unknown = root;
  for (const key of keys) {
    if (value === null || typeof value !== "object") return undefined;
    if (SECRET_SIGNATURE in value) return SECRET;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The resource's name: the last part of its URN. */
function nameOf(urn: string): string {
  return urn.split("::").at(-1) ?? urn;
}

/**
 * The properties a step changes, as the engine shows them: its detailed diff's paths when the provider gave one (the
 * plugin route), else its diff reasons, else (dynamic providers report neither) the top-level inputs whose value
 * differs between the step's old state (the refreshed one) and its new one (the program's), which is what the
 * engine's own preview display compares for such a step.
 */
function changedProperties(step: PreviewStep): string[] {
  const detailed = Object.keys(step.detailedDiff ?? {});
  const reasons = step.diffReasons ?? [];
  const olds = step.oldState?.inputs ?? {};
  const news = step.newState?.inputs ?? {};
  const names =
    detailed.length > 0
      ? detailed
      : reasons.length > 0
        ? reasons
        : [...new Set([...Object.keys(news), ...Object.keys(olds)])].filter(
            (key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
          );
  return names.filter((name) => !name.startsWith("__")).sort();
}

function quoted(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

/**
 * The engine's findings: from the steps of `pulumi preview --refresh --json`, each resource of this package the
 * refreshed state differs from the program on (an `update` or `replace`), and each whose object the refresh found
 * gone (a `create` of a URN the state held before). Steps of resources the program only now adds or removes are
 * changes to the code, not drift, and are left out.
 */
export function engineFindings(
  steps: PreviewStep[],
  stateUrns: ReadonlySet<string>,
  stack: string,
): Omit<Finding, "events" | "attribution">[] {
  const findings: Omit<Finding, "events" | "attribution">[] = [];
  for (const step of steps) {
    const urn = step.urn ?? "";
    const type = step.newState?.type ?? step.oldState?.type ?? urn.split("::")[2] ?? "";
    const kind = kindOfType(type);
    if (!kind || !stateUrns.has(urn)) continue;
    const name = nameOf(urn);
    const revert = `pulumi up --refresh --target '${urn}'${stack ? ` --stack ${stack}` : ""}`;
    const organizationId = (step.oldState?.outputs?.organizationId ?? step.newState?.inputs?.organizationId) as
      | string
      | undefined;
    const where = organizationId ? { organizationId } : {};
    if (step.op === "update" || step.op === "replace" || step.op === "create-replacement") {
      if (step.op === "create-replacement") continue;
      const changes = changedProperties(step).map((property) => ({
        property,
        declared: masked(at(step.newState?.inputs, property)),
        actual: masked(at(step.oldState?.inputs, property) ?? at(step.oldState?.outputs, property)),
      }));
      findings.push({
        type: "changed",
        kind,
        id: step.oldState?.id ?? "",
        name,
        urn,
        ...where,
        changes,
        revert,
        adopt: `In the program, set ${changes
          .map((c) => `${c.property}: ${quoted(c.actual)}`)
          .join(", ")} on ${kind} "${name}".`,
      });
    } else if (step.op === "create") {
      findings.push({
        type: "deleted",
        kind,
        id: "",
        name,
        urn,
        ...where,
        revert,
        adopt: `Remove ${kind} "${name}" from the program, then \`pulumi up --refresh\` (its refresh drops it from the state).`,
      });
    }
  }
  return findings;
}

/** The ids the state held for the resources the refresh found gone (a deleted finding names its object by them). */
export function withStateIds<T extends { urn?: string; id: string }>(findings: T[], ids: Map<string, string>): T[] {
  return findings.map((f) => (f.id === "" && f.urn && ids.has(f.urn) ? { ...f, id: ids.get(f.urn)! } : f));
}

/** An unmanaged object as a finding (not yet attributed). */
export function unmanagedFinding(
  organizationId: string,
  object: OrganizationObject,
): Omit<Finding, "events" | "attribution"> {
  return {
    type: "unmanaged",
    kind: object.kind,
    id: object.id,
    name: object.title,
    organizationId,
    revert: `Delete ${object.kind} ${object.id} ${JSON.stringify(object.title)} in the app: no resource manages it.`,
    adopt: `Declare it in the program with \`importId: "${object.id}"\` (a ${object.kind} resource), then \`pulumi up\`: see \`docs-platform import --organization ${organizationId} --kinds ${object.kind}\` for the declaration.`,
  };
}

// An event is on a finding's object by isOn (../provider/framework/driftAttribution.ts), which refresh attribution
// shares. A target of another object holding the same id (a site and its customization share the site's id) counts
// too: the report shows its type.

/** Whether an event falls within one of the stack's own runs and came through the API: the stack made it. */
export function madeByRun(event: ApiAuditEvent, runs: StackRun[]): boolean {
  if (event.source !== "api") return false;
  const at = Date.parse(event.occurredAt);
  // History times are whole seconds: a run's last write may carry the same second as its end.
  return runs.some((run) => at >= Date.parse(run.startTime) - 1000 && at <= Date.parse(run.endTime) + 1000);
}

/** The findings with the events on their objects, oldest first; each told which it is when none. */
export function attribute(
  findings: Omit<Finding, "events" | "attribution">[],
  events: Map<string, ApiAuditEvent[] | undefined>,
): Finding[] {
  return findings.map((finding) => {
    const trail = events.get(finding.organizationId ?? "") ?? events.get("");
    if (!trail) return { ...finding, events: [], attribution: "unavailable" as const };
    const on = trail
      .filter((event) => isOn(event, finding.id))
      .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
      .map((event) => ({
        occurredAt: event.occurredAt,
        action: event.action,
        actor: event.actor.label ?? event.actor.id,
        actorType: event.actor.type,
        source: event.source,
        target: { type: event.target.type, id: event.target.id },
      }));
    return {
      ...finding,
      events: on,
      attribution: on.length > 0 ? ("attributed" as const) : ("outside-window" as const),
    };
  });
}

export function summaryOf(findings: Finding[]): DriftReport["summary"] {
  const count = (type: Finding["type"]) => findings.filter((f) => f.type === type).length;
  return { changed: count("changed"), deleted: count("deleted"), unmanaged: count("unmanaged") };
}

// ---- formats

/** What a finding with no event on its object in the window says. */
export const AUDIT_WINDOW_NOTE = "changed outside the recorded window";
const OUTSIDE = AUDIT_WINDOW_NOTE;
const UNAVAILABLE = "not attributed: the audit trail could not be read (see the notes)";

function eventLine(event: AttributedEvent): string {
  return `${event.occurredAt}  ${event.actor} (${event.actorType}) from ${event.source}: ${event.action}`;
}

function attributionLines(finding: Finding): string[] {
  if (finding.attribution === "outside-window") return [OUTSIDE];
  if (finding.attribution === "unavailable") return [UNAVAILABLE];
  return finding.events.map(eventLine);
}

function title(finding: Finding): string {
  const what = { changed: "changed", deleted: "deleted", unmanaged: "unmanaged" }[finding.type];
  const id = finding.id ? ` ${finding.id}` : "";
  return `${what}: ${finding.kind} ${JSON.stringify(finding.name)}${id}`;
}

function headline(report: DriftReport): string {
  const { changed, deleted, unmanaged } = report.summary;
  if (changed + deleted + unmanaged === 0) return `Stack ${report.stack}: no drift, and every object is managed.`;
  return `Stack ${report.stack}: ${changed} changed, ${deleted} deleted, ${unmanaged} unmanaged.`;
}

/** `update #3 of <time>`, or `the update of <time>` where the backend numbers none (a local one says 0). */
export function updateName(run: StackRun): string {
  return run.version > 0 ? `update #${run.version} of ${run.endTime}` : `the update of ${run.endTime}`;
}

function windowLine(report: DriftReport): string {
  if (!report.lastUpdate || !report.window) return "No update of the stack to start the audit window from.";
  return `Since ${updateName(report.lastUpdate)} ` + `(audit events ${report.window.from} to ${report.window.to}).`;
}

/** The terminal: a short summary, then one block per finding. */
export function renderText(report: DriftReport): string {
  const lines = [headline(report), windowLine(report)];
  for (const note of report.notes) lines.push(`Note: ${note}`);
  for (const finding of report.findings) {
    lines.push("", title(finding));
    if (finding.urn) lines.push(`  urn: ${finding.urn}`);
    for (const change of finding.changes ?? []) {
      lines.push(`  ${change.property}: ${quoted(change.declared)} → ${quoted(change.actual)}`);
    }
    for (const line of attributionLines(finding)) lines.push(`  by: ${line}`);
    lines.push(`  revert: ${finding.revert}`, `  adopt:  ${finding.adopt}`);
  }
  return `${lines.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** Markdown for a pull request, an issue or a chat message. */
export function renderMarkdown(report: DriftReport): string {
  const lines = [`## Drift: ${headline(report)}`, "", windowLine(report)];
  if (report.notes.length) lines.push("", ...report.notes.map((note) => `> **Note:** ${note}`));
  if (report.findings.length) {
    lines.push(
      "",
      "| Finding | Kind | Object | Change | Who | When | From |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const f of report.findings) {
      const change = (f.changes ?? []).map((c) => `\`${c.property}\`: ${quoted(c.declared)} → ${quoted(c.actual)}`);
      const last = f.events.at(-1);
      const who = last ? last.actor : f.attribution === "outside-window" ? OUTSIDE : "not attributed";
      lines.push(
        `| ${f.type} | ${f.kind} | ${cell(`${f.name}${f.id ? ` (\`${f.id}\`)` : ""}`)} | ${cell(change.join("<br>"))} | ` +
          `${cell(who)} | ${last?.occurredAt ?? ""} | ${last?.source ?? ""} |`,
      );
    }
    for (const f of report.findings) {
      lines.push("", `### ${cell(title(f))}`, "");
      for (const change of f.changes ?? []) {
        lines.push(`- \`${change.property}\`: ${quoted(change.declared)} → ${quoted(change.actual)}`);
      }
      for (const line of attributionLines(f)) lines.push(`- by: ${line}`);
      lines.push(`- revert: ${f.urn ? `\`${f.revert}\`` : f.revert}`, `- adopt: ${f.adopt}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}

const STYLE = `body{font:14px/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24;max-width:72rem}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code,pre{font-family:ui-monospace,monospace;background:#f6f8fa;padding:.1rem .3rem}
pre{padding:.5rem;white-space:pre-wrap}.changed{color:#9a6700}.deleted{color:#cf222e}.unmanaged{color:#0969da}
.note{border-left:4px solid #d4a72c;padding-left:.5rem}ol.timeline li{margin-bottom:.3rem}`;

/** One self-contained page: no script, no external style sheet, image or font. */
export function renderHtml(report: DriftReport): string {
  const h = escapeHtml;
  const rows = report.findings.map((f, i) => {
    const change = (f.changes ?? []).map(
      (c) => `<code>${h(c.property)}</code>: ${h(quoted(c.declared))} → ${h(quoted(c.actual))}`,
    );
    const last = f.events.at(-1);
    const who = last ? last.actor : f.attribution === "outside-window" ? OUTSIDE : "not attributed";
    return (
      `<tr data-finding="${i}"><td class="${f.type}">${f.type}</td><td>${h(f.kind)}</td>` +
      `<td><a href="#finding-${i}">${h(f.name)}</a>${f.id ? ` <code>${h(f.id)}</code>` : ""}</td>` +
      `<td>${change.join("<br>")}</td><td>${h(who)}</td><td>${h(last?.occurredAt ?? "")}</td><td>${h(last?.source ?? "")}</td></tr>`
    );
  });
  const timeline = report.findings
    .flatMap((f, i) => f.events.map((event) => ({ event, f, i })))
    .sort((a, b) => a.event.occurredAt.localeCompare(b.event.occurredAt))
    .map(
      ({ event, f, i }) =>
        `<li><time datetime="${h(event.occurredAt)}">${h(event.occurredAt)}</time> ${h(event.actor)} from ` +
        `<b>${h(event.source)}</b>: ${h(event.action)} on <a href="#finding-${i}">${h(f.kind)} ${h(f.name)}</a></li>`,
    );
  const sections = report.findings.map((f, i) => {
    const changes = (f.changes ?? []).map(
      (c) => `<li><code>${h(c.property)}</code>: ${h(quoted(c.declared))} → ${h(quoted(c.actual))}</li>`,
    );
    const by = attributionLines(f).map((line) => `<li>${h(line)}</li>`);
    return (
      `<section id="finding-${i}"><h3 class="${f.type}">${h(title(f))}</h3>` +
      (f.urn ? `<p>URN <code>${h(f.urn)}</code></p>` : "") +
      (changes.length ? `<ul>${changes.join("")}</ul>` : "") +
      `<p>Who and when:</p><ul>${by.join("")}</ul>` +
      `<p>Revert:</p><pre>${h(f.revert)}</pre><p>Adopt:</p><pre>${h(f.adopt)}</pre></section>`
    );
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${h(headline(report))}</title><style>${STYLE}</style></head>
<body><h1>Drift report</h1><p>${h(headline(report))}</p><p>${h(windowLine(report))} Generated ${h(report.generatedAt)}.</p>
${report.notes.map((note) => `<p class="note">${h(note)}</p>`).join("\n")}
<h2>Findings</h2>
${rows.length ? `<table id="findings"><thead><tr><th>Finding</th><th>Kind</th><th>Object</th><th>Change</th><th>Who</th><th>When</th><th>From</th></tr></thead><tbody>${rows.join("")}</tbody></table>` : "<p>None.</p>"}
<h2>Timeline</h2>
${timeline.length ? `<ol class="timeline">${timeline.join("")}</ol>` : "<p>No attributed event.</p>"}
<h2>Each finding</h2>
${sections.join("\n")}
</body></html>
`;
}
