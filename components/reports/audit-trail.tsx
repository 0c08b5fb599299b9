"use client";

import { useState } from "react";
import { DateTime, PersonName } from "@/components/ui";
import type { TPerson } from "@/lib/format";
import type { TAuditEntryOut } from "@/lib/reports/schemas";

const READS = new Set(["read", "goaml_downloaded"]);
const ACTION_WORDS: Record<string, string> = {
  created: "Created",
  read: "Read",
  fields_updated: "Fields changed",
  indicators_updated: "Indicators changed",
  status_changed: "Status changed",
  goaml_downloaded: "goAML file downloaded",
  goaml_refused: "goAML download refused",
  filing_refused: "Filing refused",
  warnings_confirmed: "Warnings confirmed",
};

function short(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** One line per changed thing: `path: from → to` for fields, `key: value` otherwise. */
function changeLines(changes: unknown): string[] {
  if (!changes || typeof changes !== "object") return [];
  const c = changes as Record<string, unknown>;
  if (Array.isArray(c.warnings))
    return [
      ...(c.warnings as { path: string; message: string }[]).map((w) => `${w.path}: ${w.message}`),
      `note: ${short(c.note)}`,
    ];
  if (c.fields && typeof c.fields === "object")
    return Object.entries(c.fields as Record<string, { from: unknown; to: unknown }>).map(
      ([path, v]) => `${path}: ${short(v.from)} → ${short(v.to)}`,
    );
  if ("from" in c && "to" in c && Object.keys(c).length <= 3)
    return [`${short(c.from)} → ${short(c.to)}`, ...(c.comment ? [`comment: ${short(c.comment)}`] : [])];
  return Object.entries(c).map(([k, v]) => `${k}: ${short(v)}`);
}

/** The report's audit trail, newest first, filtered to changes or reads. */
export function AuditTrail({
  entries,
  actors,
}: {
  entries: TAuditEntryOut[];
  actors: Record<string, TPerson>;
}) {
  const [filter, setFilter] = useState<"all" | "changes" | "reads">("changes");
  const shown = [...entries]
    .reverse()
    .filter((e) => filter === "all" || (filter === "reads") === READS.has(e.action));
  const count = (f: "changes" | "reads") =>
    entries.filter((e) => (f === "reads") === READS.has(e.action)).length;
  return (
    <div className="space-y-3">
      <div className="flex gap-1" role="tablist" data-testid="audit-filter">
        {(["changes", "reads", "all"] as const).map((f) => (
          <button
            key={f}
            type="button"
            role="tab"
            aria-selected={filter === f}
            onClick={() => setFilter(f)}
            data-testid={`audit-filter-${f}`}
            className={`rounded-md px-3 py-1 text-sm ${
              filter === f ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"
            }`}
          >
            {f === "all"
              ? `All (${entries.length})`
              : f === "changes"
                ? `Changes (${count("changes")})`
                : `Reads and downloads (${count("reads")})`}
          </button>
        ))}
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="w-full table-fixed divide-y divide-slate-200 text-sm">
          <colgroup>
            <col className="w-12" />
            <col className="w-44" />
            <col className="w-48" />
            <col className="w-40" />
            <col />
            <col className="w-28" />
          </colgroup>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {["#", "When", "Who", "Action", "Changes", "Hash"].map((h) => (
                <th key={h} className="px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 align-top">
            {shown.map((e) => (
              <tr key={e.seq} data-testid="audit-entry" data-action={e.action}>
                <td className="px-3 py-2 text-slate-600">{e.seq}</td>
                <td className="px-3 py-2 text-slate-700">
                  <DateTime value={e.at} />
                </td>
                <td className="truncate px-3 py-2 text-slate-700">
                  {e.actorType === "dashboard" ? (
                    <PersonName
                      person={actors[e.actorId ?? ""] ?? (e.actorId ? { email: e.actorId } : null)}
                    />
                  ) : (
                    <span title={e.actorId ?? undefined}>
                      {e.actorType === "api" ? "API" : e.actorType}
                      {e.actorId && e.actorId !== "api" ? ` (${e.actorId.slice(0, 8)})` : ""}
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 text-slate-700">{ACTION_WORDS[e.action] ?? e.action}</td>
                <td className="px-3 py-2">
                  <ul className="space-y-0.5 break-words font-mono text-xs text-slate-700">
                    {changeLines(e.changes).map((line, i) => (
                      <li key={i}>{line}</li>
                    ))}
                  </ul>
                </td>
                <td className="truncate px-3 py-2 font-mono text-xs text-slate-600" title={e.hash}>
                  {e.hash.slice(0, 10)}…
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 && <p className="px-3 py-4 text-sm text-slate-600">No entries.</p>}
      </div>
    </div>
  );
}
