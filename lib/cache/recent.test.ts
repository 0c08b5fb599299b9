import { describe, expect, it } from "vitest";
import { recent, recentStore } from "@/lib/cache/recent";

describe("recent", () => {
  it("answers from the stored value within the ttl and computes again after it", async () => {
    const store = recentStore<number>();
    let calls = 0;
    const compute = () => Promise.resolve(++calls);
    expect(await recent(store, "a", 1000, compute, 0)).toBe(1);
    expect(await recent(store, "a", 1000, compute, 999)).toBe(1);
    expect(await recent(store, "b", 1000, compute, 999)).toBe(2);
    expect(await recent(store, "a", 1000, compute, 1000)).toBe(3);
  });

  it("does not keep a failure", async () => {
    const store = recentStore<number>();
    await expect(recent(store, "a", 1000, () => Promise.reject(new Error("down")), 0)).rejects.toThrow(
      "down",
    );
    expect(await recent(store, "a", 1000, () => Promise.resolve(7), 1)).toBe(7);
  });
});
