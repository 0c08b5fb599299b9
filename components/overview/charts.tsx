// Small charts for the overview, drawn with inline SVG and Tailwind (no chart library).
import { cx } from "@/components/ui";

export function HourlyBars({ points, label }: { points: { hour: number; count: number }[]; label: string }) {
  const max = Math.max(1, ...points.map((p) => p.count));
  return (
    <figure aria-label={label} role="img">
      <div className="flex h-36 items-end gap-1 border-b border-slate-200">
        {points.map((p) => (
          <div
            key={p.hour}
            className="flex-1 rounded-t bg-brand-500 hover:bg-brand-700"
            style={{ height: `${(p.count / max) * 100}%`, minHeight: p.count ? 2 : 0 }}
            title={`${new Date(p.hour).toISOString().slice(11, 16)} UTC: ${p.count.toLocaleString("en")}`}
          />
        ))}
      </div>
      <div className="mt-1 flex gap-1 text-[10px] text-slate-400">
        {points.map((p, i) => (
          <div key={p.hour} className="flex-1 text-center">
            {i % 3 === 0 ? new Date(p.hour).toISOString().slice(11, 13) + "h" : ""}
          </div>
        ))}
      </div>
      <figcaption className="sr-only">{label}</figcaption>
    </figure>
  );
}

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
  if (total === 0) return <p className="text-sm text-slate-500">No screenings in the last 24 hours.</p>;
  return (
    <ul className="space-y-2" data-testid={testId}>
      {rows.map((r) => {
        const pct = (r.count / total) * 100;
        return (
          <li key={r.key} className="text-sm">
            <div className="flex justify-between text-slate-700">
              <span>{r.key.replace("_", " ")}</span>
              <span className="tabular-nums text-slate-500">
                {r.count.toLocaleString("en")} · {pct.toFixed(1)}%
              </span>
            </div>
            <div className="mt-1 h-2 rounded bg-slate-100">
              <div
                className={cx("h-2 rounded", colorFor?.(r.key) ?? "bg-brand-500")}
                style={{ width: `${Math.max(pct, 0.5)}%` }}
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
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </div>
      {hint && <div className="mt-0.5 text-xs text-slate-500">{hint}</div>}
    </div>
  );
}
