import { describe, expect, it } from "vitest";
import { boundedCache } from "@/lib/cache/bounded-cache";

describe("boundedCache", () => {
  it("keeps at most max entries, evicting the least recently used", () => {
    const cache = boundedCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.size).toBe(2);
    expect(cache.has("b")).toBe(false);
    expect([cache.get("a"), cache.get("c")]).toEqual([1, 3]);
  });
});
