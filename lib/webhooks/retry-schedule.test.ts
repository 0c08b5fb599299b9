import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_DELAYS_MS, parseRetryDelays } from "@/lib/webhooks/retry-schedule";

describe("parseRetryDelays", () => {
  it("defaults to the documented schedule", () => {
    expect(parseRetryDelays(undefined)).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
    ]);
    expect(parseRetryDelays("")).toBe(DEFAULT_RETRY_DELAYS_MS);
  });

  it("reads a comma-separated override", () => {
    expect(parseRetryDelays("50, 50,100")).toEqual([50, 50, 100]);
  });

  it("rejects garbage", () => {
    expect(() => parseRetryDelays("50,abc")).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => parseRetryDelays("-1")).toThrow();
  });
});
