import { DateTime } from "@/components/ui/date-time";
import { formatCount, formatDateTimeUtc, formatMoney } from "@/lib/format";
import type { TCaseDetail } from "@/lib/cases/get-case-detail";

const W = 720;
const H = 120;

/**
 * The subject's transactions over time: one bar per transaction (height by amount within each currency),
 * alerted ones in red. Each bar names its transaction on hover; the text below summarises the chart.
 */
export function CaseActivity({ activity }: { activity: TCaseDetail["activity"] }) {
  if (activity.length === 0) return <p className="text-sm text-slate-700">No transactions on record.</p>;
  const first = activity[0]!.occurredAt;
  const last = activity[activity.length - 1]!.occurredAt;
  const span = Math.max(last - first, 1);
  const maxByCurrency = new Map<string, number>();
  for (const t of activity)
    maxByCurrency.set(t.currencyCode, Math.max(maxByCurrency.get(t.currencyCode) ?? 0, Number(t.amount)));
  const alerted = activity.filter((t) => t.alerted).length;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H + 4}`}
        className="h-32 w-full"
        role="img"
        aria-label={`${formatCount(activity.length, "transaction")} from ${formatDateTimeUtc(first)} to ${formatDateTimeUtc(last)}, ${alerted} with alerts`}
        data-testid="case-activity"
      >
        <line x1="0" y1={H} x2={W} y2={H} stroke="#64748b" strokeWidth="1" />
        {activity.map((t) => {
          const x = activity.length === 1 ? W / 2 : ((t.occurredAt - first) / span) * (W - 8) + 4;
          const max = maxByCurrency.get(t.currencyCode) || 1;
          const h = Math.max(4, (Number(t.amount) / max) * (H - 8));
          return (
            <rect
              key={t.id}
              x={x - 2}
              y={H - h}
              width="4"
              height={h}
              fill={t.alerted ? "#b91c1c" : "#64748b"}
            >
              <title>{`${t.id}: ${formatMoney(t.amount, t.currencyCode)}, ${formatDateTimeUtc(t.occurredAt)}${t.alerted ? ", alerted" : ""}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-700">
        <DateTime value={first} />
        <span data-testid="case-activity-summary">
          {formatCount(activity.length, "transaction")},{" "}
          <span className="font-medium text-red-800">{alerted} alerted</span>
        </span>
        <DateTime value={last} />
      </figcaption>
    </figure>
  );
}
