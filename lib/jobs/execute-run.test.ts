import { describe, expect, it } from "vitest";
import { sleepUntil } from "@/lib/jobs/execute-run";

describe("sleepUntil (Sleep op names)", () => {
  it("reads the SDK's duration strings", () => {
    expect(sleepUntil("1s", 1000)).toBe(2000);
    expect(sleepUntil("1m30s", 0)).toBe(90_000);
    expect(sleepUntil("2h", 0)).toBe(7_200_000);
    expect(sleepUntil("1w1d", 0)).toBe(8 * 86_400_000);
  });

  it("reads sleepUntil's ISO dates with milliseconds", () => {
    expect(sleepUntil("2026-11-22T01:00:00.050Z", 0)).toBe(Date.parse("2026-11-22T01:00:00.050Z"));
  });

  it("treats a missing name as now", () => {
    expect(sleepUntil(undefined, 42)).toBe(42);
  });
});
