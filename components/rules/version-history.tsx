"use client";

import { useState } from "react";
import { textDiff } from "@/components/rules/text-diff";
import { statusTone } from "@/components/rules/status-tone";
import { Badge, Card, DateTime, PersonName, cx } from "@/components/ui";
import { formatEnum } from "@/lib/format";
import type { TRuleVersionView } from "@/lib/admin/get-rule-detail";

const FIELDS = ["name", "riskLevel", "recommendedAction", "reason"] as const;

const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  name: "Name",
  riskLevel: "Risk level",
  recommendedAction: "Recommended action",
  reason: "Reason",
};

function shown(field: (typeof FIELDS)[number], value: string): string {
  return field === "riskLevel" || field === "recommendedAction" ? formatEnum(value) : value;
}

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

/**
 * Versions newest first, the live one marked; picking two shows what changed, field by field (by
 * default the newest draft against the live version).
 */
export function VersionHistory({
  versions,
  liveStatus,
}: {
  versions: TRuleVersionView[];
  /** The live version's status while it screens; null when the rule is off. */
  liveStatus: string | null;
}) {
  const live = versions.find((v) => v.isLive);
  const [newer, setNewer] = useState(versions[0]?.version ?? 0);
  const [older, setOlder] = useState(
    live && live.version !== versions[0]?.version
      ? live.version
      : (versions[1]?.version ?? versions[0]?.version ?? 0),
  );
  const a = versions.find((v) => v.version === older);
  const b = versions.find((v) => v.version === newer);
  const changed = a && b ? FIELDS.filter((f) => a.definition[f] !== b.definition[f]) : [];
  const aggA = JSON.stringify(a?.definition.aggregates ?? {}, null, 1);
  const aggB = JSON.stringify(b?.definition.aggregates ?? {}, null, 1);
  return (
    <Card title="Version history">
      <ol className="mb-4 max-h-56 space-y-1 overflow-y-auto text-sm">
        {versions.map((v) => (
          <li key={v.id} className="flex flex-wrap items-center gap-x-3" data-testid={`version-${v.version}`}>
            <span className="w-10 font-mono text-slate-600">v{v.version}</span>
            <span className="w-36">
              {v.isLive ? (
                <Badge tone={liveStatus ? statusTone(liveStatus) : "slate"}>
                  Live{liveStatus ? ` · ${formatEnum(liveStatus)}` : " · switched off"}
                </Badge>
              ) : v.definition.status === "draft" ? (
                <Badge tone="amber">Draft</Badge>
              ) : (
                <span className="text-slate-600">Imported as {formatEnum(v.definition.status)}</span>
              )}
            </span>
            <span className="text-slate-600">
              <DateTime value={v.createdAt} />
            </span>
            <span className="max-w-64 truncate text-slate-600">
              {v.createdBy ? <PersonName person={v.createdBy} /> : "import"}
            </span>
            {v.published && (
              <span
                className="basis-full break-words pb-1 pl-[3.25rem] text-slate-700"
                data-testid="publish-note"
              >
                Published <DateTime value={v.published.at} />
                {v.published.by ? (
                  <>
                    {" "}
                    by <PersonName person={v.published.by} />
                  </>
                ) : null}
                {v.published.note ? (
                  <>
                    : “<bdi>{v.published.note}</bdi>”
                  </>
                ) : null}
              </span>
            )}
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
                  <span className="font-medium text-slate-600">{FIELD_LABELS[f]}</span>
                  <span>
                    <span className="bg-red-100 text-red-900 line-through">{shown(f, a.definition[f])}</span>{" "}
                    → <span className="bg-emerald-100 text-emerald-900">{shown(f, b.definition[f])}</span>
                  </span>
                </div>
              ))}
              {a.definition.condition !== b.definition.condition && (
                <div>
                  <span className="font-medium text-slate-600">Condition</span>
                  <ConditionDiff before={a.definition.condition} after={b.definition.condition} />
                </div>
              )}
              {aggA !== aggB && (
                <div>
                  <span className="font-medium text-slate-600">Aggregates</span>
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
