// Small charts for the overview, drawn with Tailwind boxes (no chart library).
import { cx } from "@/components/ui/cx";
import { formatEnum, formatNumber, formatPercent } from "@/lib/format";

const LEVEL_BAR: Record<string, string> = {
  very_high: "bg-red-500",
  high: "bg-orange-500",
  medium: "bg-amber-400",
  medium_low: "bg-yellow-300",
  low: "bg-emerald-400",
  "n/a": "bg-slate-300",
};

/** Horizontal share bars: one row per key with its count and percentage of the total. */
export function ShareBars({
  rows,
  testId,
  colorFor,
}: {
  rows: { key: string; count: number }[];
  testId: string;
  colorFor?: (key: string) => string;
}) {
  const total = rows.reduce((s, r) => s + r.count, 0);
  if (total === 0) return <p className="text-sm text-slate-600">No screenings in the last 24 hours.</p>;
  return (
    <ul className="space-y-2" data-testid={testId}>
      {rows.map((r) => {
        const share = r.count / total;
        return (
          <li key={r.key} className="text-sm">
            <div className="flex justify-between text-slate-700">
              <span>{formatEnum(r.key)}</span>
              <span className="tabular-nums text-slate-600">
                {formatNumber(r.count)} · {formatPercent(share)}
              </span>
            </div>
            <div className="mt-1 h-2 rounded bg-slate-100">
              <div
                className={cx("h-2 rounded", colorFor?.(r.key) ?? "bg-brand-500")}
                style={{ width: `${Math.max(share * 100, 0.5)}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function levelColor(level: string): string {
  return LEVEL_BAR[level] ?? "bg-slate-300";
}

export function Stat({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId?: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </div>
      {hint && <div className="mt-0.5 text-xs text-slate-600">{hint}</div>}
    </div>
  );
}
