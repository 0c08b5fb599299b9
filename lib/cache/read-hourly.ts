// Aggregates over a window of whole hours that read each settled hour once every few minutes. An hour that
// ended a while ago receives no new rows (rows are stamped with the time they were written), so its figures
// are kept per client and only the hours still open are read on every call: at 10,000,000 transactions a day
// is 330,000 rows and a week 470,000 alerts, far too many to group on every refresh of a page. A stored row
// can still change (a resubmitted transaction's risk level, an alert's rule name), so a kept hour is read
// again once it is REREAD_MS old: the figures are at most that stale.
import { boundedCache, type TBoundedCache } from "@/lib/cache/bounded-cache";

export const HOUR_MS = 3_600_000;
/**
 * How long after its end an hour may still receive rows: a row carries the time its transaction started
 * (or its screening began), and is seen only when that transaction commits.
 */
export const SETTLE_MS = 5 * 60_000;

/** How long a settled hour's figures are kept before they are read again. */
export const REREAD_MS = 10 * 60_000;

/** Per client (and aggregate): the settled hours' rows by the hour's start (epoch ms), and when they were read. */
export type THourlyStore<T> = TBoundedCache<Map<number, { rows: T[]; readAt: number }>>;

const MAX_KEYS = 1000;

export function hourlyStore<T>(): THourlyStore<T> {
  return boundedCache<Map<number, { rows: T[]; readAt: number }>>(MAX_KEYS);
}

/**
 * The rows of `read` for the hours [start, end) (both whole hours), each row carrying its UTC hour (SQL's
 * `date_bin('1 hour', t, TIMESTAMPTZ 'epoch')`; `date_trunc` follows the session's time zone): settled hours
 * from the store when read before, the others from one call of `read` over [first unknown hour, end). What
 * that call answers for settled hours (empty hours included) is kept for the next time.
 */
export async function readHourly<T extends { hour: Date }>(
  store: THourlyStore<T>,
  key: string,
  { start, end, now }: { start: Date; end: Date; now: Date },
  read: (from: Date, to: Date) => Promise<T[]>,
): Promise<T[]> {
  const settledEnd = Math.min(end.getTime(), Math.floor((now.getTime() - SETTLE_MS) / HOUR_MS) * HOUR_MS);
  const known = store.get(key) ?? new Map<number, { rows: T[]; readAt: number }>();
  for (const [hour, kept] of known)
    if (hour < start.getTime() || now.getTime() - kept.readAt >= REREAD_MS) known.delete(hour);
  let from = start.getTime();
  while (from < settledEnd && known.has(from)) from += HOUR_MS;

  const fresh = await read(new Date(from), end);
  const byHour = new Map<number, T[]>();
  for (const row of fresh) {
    // whole UTC hours whatever the SQL answered, so that no row falls between the keys
    const hour = Math.floor(row.hour.getTime() / HOUR_MS) * HOUR_MS;
    const list = byHour.get(hour);
    if (list) list.push(row);
    else byHour.set(hour, [row]);
  }
  for (let hour = from; hour < settledEnd; hour += HOUR_MS)
    known.set(hour, { rows: byHour.get(hour) ?? [], readAt: now.getTime() });
  store.set(key, known);

  const rows: T[] = [];
  for (let hour = start.getTime(); hour < from; hour += HOUR_MS) rows.push(...(known.get(hour)?.rows ?? []));
  return rows.concat(fresh);
}
