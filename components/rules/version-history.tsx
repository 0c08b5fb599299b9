"use client";

import { useState } from "react";
import { textDiff } from "@/components/rules/text-diff";
import { Card, cx, formatTime } from "@/components/ui";
import type { TRuleVersionView } from "@/lib/admin/get-rule-detail";

const FIELDS = ["name", "subject", "status", "riskLevel", "recommendedAction", "reason"] as const;

function ConditionDiff({ before, after }: { before: string; after: string }) {
  const { parts, byLine } = textDiff(before, after);
  return (
    <pre
      className="whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs"
      data-testid="condition-diff"
    >
      {parts.map((p, i) => (
        <span
          key={i}
          className={cx(
            p.kind === "added" && "bg-emerald-100 text-emerald-900",
            p.kind === "removed" && "bg-red-100 text-red-900 line-through",
          )}
        >
          {p.text}
          {byLine ? "\n" : ""}
        </span>
      ))}
    </pre>
  );
}

/** Versions newest first; picking two shows what changed, field by field. */
export function VersionHistory({ versions }: { versions: TRuleVersionView[] }) {
  const [newer, setNewer] = useState(versions[0]?.version ?? 0);
  const [older, setOlder] = useState(versions[1]?.version ?? versions[0]?.version ?? 0);
  const a = versions.find((v) => v.version === older);
  const b = versions.find((v) => v.version === newer);
  const changed = a && b ? FIELDS.filter((f) => a.definition[f] !== b.definition[f]) : [];
  const aggA = JSON.stringify(a?.definition.aggregates ?? {}, null, 1);
  const aggB = JSON.stringify(b?.definition.aggregates ?? {}, null, 1);
  return (
    <Card title="Version history">
      <ol className="mb-4 max-h-56 space-y-1 overflow-y-auto text-sm">
        {versions.map((v) => (
          <li key={v.id} className="flex items-center gap-3">
            <span className="w-10 font-mono text-slate-500">v{v.version}</span>
            <span className="text-slate-700">{v.definition.status}</span>
            <span className="text-slate-500">{formatTime(v.createdAt)}</span>
            <span className="truncate text-slate-500">{v.createdBy ?? "import"}</span>
          </li>
        ))}
      </ol>
      {versions.length > 1 && (
        <div className="space-y-2">
          <div className="flex items-center gap-2 text-sm">
            Compare
            <select
              aria-label="Older version"
              value={older}
              onChange={(e) => setOlder(Number(e.target.value))}
              className="rounded border border-slate-300 px-1 py-0.5"
            >
              {versions.map((v) => (
                <option key={v.id} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </select>
            with
            <select
              aria-label="Newer version"
              value={newer}
              onChange={(e) => setNewer(Number(e.target.value))}
              className="rounded border border-slate-300 px-1 py-0.5"
            >
              {versions.map((v) => (
                <option key={v.id} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </select>
          </div>
          {a && b && (
            <div className="space-y-2 text-sm" data-testid="version-diff">
              {changed.length === 0 && a.definition.condition === b.definition.condition && aggA === aggB && (
                <p className="text-slate-500">No differences.</p>
              )}
              {changed.map((f) => (
                <div key={f} className="grid grid-cols-[10rem_1fr] gap-2">
                  <span className="font-medium text-slate-600">{f}</span>
                  <span>
                    <span className="bg-red-100 text-red-900 line-through">{String(a.definition[f])}</span> →{" "}
                    <span className="bg-emerald-100 text-emerald-900">{String(b.definition[f])}</span>
                  </span>
                </div>
              ))}
              {a.definition.condition !== b.definition.condition && (
                <div>
                  <span className="font-medium text-slate-600">condition</span>
                  <ConditionDiff before={a.definition.condition} after={b.definition.condition} />
                </div>
              )}
              {aggA !== aggB && (
                <div>
                  <span className="font-medium text-slate-600">aggregates</span>
                  <ConditionDiff before={aggA} after={aggB} />
                </div>
              )}
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
