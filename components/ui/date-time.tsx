"use client";

import { useSyncExternalStore } from "react";
import { formatDate, formatDateTime, formatDateTimeUtc, formatTimeOfDay, toDate } from "@/lib/format";

const noSubscription = () => () => {};
const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
// The server cannot know the viewer's zone: it renders UTC (and says so), the browser then switches to local time.
const serverTimeZone = () => "UTC";

/** A moment in the viewer's time zone with the year; the exact UTC instant on hover. */
export function DateTime({
  value,
  dateOnly = false,
  timeOnly = false,
  className,
}: {
  value: number | string | Date | null | undefined;
  /** `23 Nov 2026` */
  dateOnly?: boolean;
  /** `19:49:05`, for a moment whose day is shown nearby */
  timeOnly?: boolean;
  className?: string;
}) {
  const timeZone = useSyncExternalStore(noSubscription, viewerTimeZone, serverTimeZone);
  const date = toDate(value);
  if (!date) return <span className={className}>—</span>;
  const text = dateOnly
    ? formatDate(date, timeZone)
    : timeOnly
      ? formatTimeOfDay(date, timeZone)
      : formatDateTime(date, timeZone);
  return (
    <time dateTime={date.toISOString()} title={formatDateTimeUtc(date)} className={className}>
      {text}
      {timeZone === "UTC" && !dateOnly ? " UTC" : ""}
    </time>
  );
}
