"use client";

// Screenings per hour, labelled in the viewer's time zone (a client component: the server cannot know it).
import { useViewerTimeZone } from "@/components/ui/date-time";
import { formatDateTime, formatNumber, formatTimeOfDay } from "@/lib/format";

export function HourlyBars({ points, label }: { points: { hour: number; count: number }[]; label: string }) {
  const max = Math.max(1, ...points.map((p) => p.count));
  const timeZone = useViewerTimeZone();
  return (
    <figure aria-label={label} role="img">
      <div className="flex h-36 items-end gap-1 border-b border-slate-200">
        {points.map((p) => (
          <div
            key={p.hour}
            className="flex-1 rounded-t bg-brand-500 hover:bg-brand-700"
            style={{ height: `${(p.count / max) * 100}%`, minHeight: p.count ? 2 : 0 }}
            title={`${formatDateTime(p.hour, timeZone)}: ${formatNumber(p.count)}`}
          />
        ))}
      </div>
      <div className="mt-1 flex gap-1 text-xs text-slate-700" aria-hidden="true">
        {points.map((p, i) => (
          <div key={p.hour} className="flex-1 whitespace-nowrap text-center">
            {i % 3 === 0 ? formatTimeOfDay(p.hour, timeZone, { seconds: false }) : ""}
          </div>
        ))}
      </div>
      <figcaption className="sr-only">{label}</figcaption>
    </figure>
  );
}
