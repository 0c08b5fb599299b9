// One list in memory, indexed for O(1) lookups: a hash map of keys, and for ip lists one map of
// networks per prefix length present (a lookup masks the address once per length: at most 33
// IPv4 or 129 IPv6 probes, whatever the list's size). Expired entries never match.
import { bits, maskTo, parseIp, parseIpRange } from "@/lib/lists/ip";
import { lookupKey } from "@/lib/lists/entry-key";
import type { TListKind } from "@/lib/lists/schemas";

/** An entry as loaded: [key, expiresAt epoch ms or null, value as entered]. */
export type TLoadedEntry = readonly [string, number | null, string];

type TEntryRef = { value: string; expiresAt: number | null };

function live(entry: TEntryRef | undefined, now: number): entry is TEntryRef {
  return entry !== undefined && (entry.expiresAt === null || entry.expiresAt > now);
}

export class ListIndex {
  private readonly byKey = new Map<string, TEntryRef>();
  /** ip lists: per family, prefix lengths present (longest first) and their networks. */
  private readonly ranges: Record<4 | 6, Array<{ prefix: number; networks: Map<bigint, TEntryRef> }>> = {
    4: [],
    6: [],
  };

  constructor(
    readonly kind: TListKind,
    entries: Iterable<TLoadedEntry>,
  ) {
    for (const [key, expiresAt, value] of entries) {
      const ref = { value, expiresAt };
      if (kind !== "ip") {
        this.byKey.set(key, ref);
        continue;
      }
      const range = parseIpRange(key);
      if ("error" in range) continue; // validated on write; never expected here
      const byPrefix = this.ranges[range.family];
      let slot = byPrefix.find((s) => s.prefix === range.prefix);
      if (!slot) byPrefix.push((slot = { prefix: range.prefix, networks: new Map() }));
      slot.networks.set(range.network, ref);
    }
    for (const family of [4, 6] as const) this.ranges[family].sort((a, b) => b.prefix - a.prefix);
  }

  /** The entry (as entered) that `value` matches at `now`, or null. */
  match(value: string, now: number): string | null {
    if (this.kind !== "ip") {
      const key = lookupKey(this.kind, value);
      const entry = key === null ? undefined : this.byKey.get(key);
      return live(entry, now) ? entry.value : null;
    }
    const ip = parseIp(value);
    if (!ip) return null;
    for (const slot of this.ranges[ip.family]) {
      const entry = slot.networks.get(
        slot.prefix === bits(ip.family) ? ip.value : maskTo(ip.value, ip.family, slot.prefix),
      );
      if (live(entry, now)) return entry.value;
    }
    return null;
  }
}
