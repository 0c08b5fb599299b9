// A figure computed within the last few seconds, shared: pages whose aggregates cost a scan of a day or a
// week of rows (the overview, the rules list's hit counts) answer from it instead of scanning per request.

type TEntry<T> = { at: number; value: Promise<T> };

export type TRecentStore<T> = Map<string, TEntry<T>>;

const MAX_KEYS = 1000;

/**
 * The value of `key` computed less than `ttlMs` ago, else a fresh one. Concurrent callers share one
 * computation; a failure is not kept.
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
  if (store.size >= MAX_KEYS) store.delete(store.keys().next().value!);
  const value = compute();
  store.delete(key);
  store.set(key, { at: now, value });
  value.catch(() => {
    if (store.get(key)?.value === value) store.delete(key);
  });
  return value;
}
