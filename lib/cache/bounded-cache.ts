import { LRUCache } from "lru-cache";

// Every in-process cache with a size bound is one of these: when full, the least recently used entry makes
// room for the new one (a hand-written cache that cleared itself when full lost all its warm entries at once).

export type TBoundedCache<V extends NonNullable<unknown>, K extends NonNullable<unknown> = string> = LRUCache<
  K,
  V
>;

/** A cache of at most `max` entries, least recently used evicted first. */
export function boundedCache<V extends NonNullable<unknown>, K extends NonNullable<unknown> = string>(
  max: number,
): TBoundedCache<V, K> {
  return new LRUCache<K, V>({ max });
}
