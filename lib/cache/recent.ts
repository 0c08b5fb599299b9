// A figure computed within the last few seconds, shared: pages whose aggregates cost a scan of a day or a
// week of rows (the overview, the rules list's hit counts) answer from it instead of scanning per request.
import { boundedCache, type TBoundedCache } from "@/lib/cache/bounded-cache";

type TEntry<T> = { at: number; value: Promise<T> };

export type TRecentStore<T> = TBoundedCache<TEntry<T>>;

const MAX_KEYS = 1000;

export function recentStore<T>(): TRecentStore<T> {
  return boundedCache<TEntry<T>>(MAX_KEYS);
}

/**
 * The value of `key` computed less than `ttlMs` ago, else a fresh one. Concurrent callers share one
 * computation; a failure is not kept. Freshness is checked here rather than by the cache's own TTL, against
 * `now` (the caller's clock), so an entry is stale from exactly `ttlMs` on.
 */
export function recent<T>(
  store: TRecentStore<T>,
  key: string,
  ttlMs: number,
  compute: () => Promise<T>,
  now = Date.now(),
): Promise<T> {
  const hit = store.get(key);
  if (hit && now - hit.at < ttlMs) return hit.value;
  const value = compute();
  store.set(key, { at: now, value });
  value.catch(() => {
    if (store.peek(key)?.value === value) store.delete(key);
  });
  return value;
}
