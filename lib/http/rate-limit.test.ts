import { afterEach, describe, expect, it, vi } from "vitest";
import {
  answerRateLimitMessage,
  leaseSize,
  resetRateLimits,
  takeTokens,
  takeTokenShared,
} from "@/lib/http/rate-limit";

afterEach(() => resetRateLimits());

describe("token leases of the shared rate limit", () => {
  it("grants at most what the bucket holds, and refuses once it is empty", () => {
    const now = 1_000_000;
    // 100/s: a burst of 200
    expect(takeTokens("k", 100, 50, now)).toEqual({ ok: true, granted: 50 });
    expect(takeTokens("k", 100, 50, now)).toEqual({ ok: true, granted: 50 });
    expect(takeTokens("k", 100, 50, now)).toEqual({ ok: true, granted: 50 });
    expect(takeTokens("k", 100, 50, now)).toEqual({ ok: true, granted: 50 });
    expect(takeTokens("k", 100, 50, now)).toEqual({ ok: false, retryAfterSeconds: 1 });
    // 100 ms later, 10 tokens again
    expect(takeTokens("k", 100, 50, now + 100)).toEqual({ ok: true, granted: 10 });
  });

  it("leases 1% of a second's tokens, between 1 and 50", () => {
    expect(leaseSize(1)).toBe(1);
    expect(leaseSize(1000)).toBe(10);
    expect(leaseSize(1_000_000)).toBe(50);
  });

  it("a worker spends its lease locally and never exceeds the primary's bucket", async () => {
    // One process playing worker and primary: process.send hands the message to the primary's side,
    // whose answer comes back as the IPC message event.
    const sent: unknown[] = [];
    const original = { send: process.send, connected: process.connected };
    process.env.RSS_RATE_LIMIT_IPC = "1";
    process.send = ((message: unknown) => {
      sent.push(message);
      answerRateLimitMessage(message, (answer) =>
        setImmediate(() => process.emit("message", answer, undefined)),
      );
      return true;
    }) as typeof process.send;
    Object.defineProperty(process, "connected", { value: true, configurable: true });
    vi.useFakeTimers({ toFake: ["Date"] }); // no refill while the loop runs
    try {
      // 500/s: leases of 5, a burst of 1000
      const results = [];
      for (let i = 0; i < 1100; i++) results.push(await takeTokenShared("key", 500));
      // exactly the burst, then refusals
      expect(results.filter((r) => r.ok)).toHaveLength(1000);
      expect(results.slice(1000).every((r) => !r.ok)).toBe(true);
      // one round trip per lease of 5 while tokens last, one per request once refused
      expect(sent).toHaveLength(1000 / 5 + 100);
    } finally {
      vi.useRealTimers();
      delete process.env.RSS_RATE_LIMIT_IPC;
      process.send = original.send;
      Object.defineProperty(process, "connected", { value: original.connected, configurable: true });
    }
  });
});
