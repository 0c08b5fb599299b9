// Small UI kit shared by every dashboard screen (Tailwind only).
import type { ReactNode } from "react";
import { formatEnum } from "@/lib/format";
import { cx } from "@/components/ui/cx";

export { cx } from "@/components/ui/cx";
export { Button } from "@/components/ui/button";
export { inputClass, linkClass } from "@/components/ui/styles";
export { ClientText, Money, EnumLabel, PersonName } from "@/components/ui/format";
export { DateTime } from "@/components/ui/date-time";
export { Dialog, ConfirmDialog } from "@/components/ui/dialog";
export { ChoiceCards, NoteDialog, DoneNote, type TNoteDialogValues } from "@/components/ui/note-dialog";

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      {/* min-w-0 and anywhere: a long client-supplied value in a heading wraps instead of widening the page */}
      <div className="min-w-0 max-w-full">
        <h1 className="text-2xl font-semibold [overflow-wrap:anywhere] text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
      </div>
      {actions && <div className="flex gap-2">{actions}</div>}
    </div>
  );
}

export function Card({
  title,
  children,
  className,
  actions,
}: {
  title?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
}) {
  return (
    <section className={cx("rounded-lg border border-slate-200 bg-white shadow-sm", className)}>
      {(title || actions) && (
        <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
          <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
          {actions}
        </div>
      )}
      <div className="p-4">{children}</div>
    </section>
  );
}

const LEVEL_COLORS: Record<string, string> = {
  very_high: "bg-red-100 text-red-800 ring-red-200",
  high: "bg-orange-100 text-orange-800 ring-orange-200",
  medium: "bg-amber-100 text-amber-800 ring-amber-200",
  medium_low: "bg-yellow-50 text-yellow-800 ring-yellow-200",
  low: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  "n/a": "bg-slate-100 text-slate-600 ring-slate-200",
};

export function LevelBadge({ level }: { level: string }) {
  return (
    <span
      className={cx(
        "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        LEVEL_COLORS[level] ?? LEVEL_COLORS["n/a"],
      )}
    >
      {formatEnum(level)}
    </span>
  );
}

export function Badge({
  children,
  tone = "slate",
}: {
  children: ReactNode;
  tone?: "slate" | "green" | "red" | "amber" | "blue";
}) {
  const tones = {
    slate: "bg-slate-100 text-slate-700",
    green: "bg-emerald-100 text-emerald-800",
    red: "bg-red-100 text-red-800",
    amber: "bg-amber-100 text-amber-800",
    blue: "bg-sky-100 text-sky-800",
  };
  return (
    <span className={cx("inline-flex rounded px-1.5 py-0.5 text-xs font-medium", tones[tone])}>
      {children}
    </span>
  );
}

export function Table({
  head,
  children,
  empty,
}: {
  head: ReactNode[];
  children: ReactNode;
  empty?: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50">
          <tr>
            {head.map((h, i) => (
              <th
                key={i}
                className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
      {empty}
    </div>
  );
}

export function Td({ children, className }: { children?: ReactNode; className?: string }) {
  // Cells do not wrap unless the caller says how (a whitespace-* class of its own).
  const wrap = className?.includes("whitespace-") ? null : "whitespace-nowrap";
  return <td className={cx(wrap, "px-3 py-2 text-slate-700", className)}>{children}</td>;
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="error-note">
      {children}
    </p>
  );
}
