import { afterEach, describe, expect, it, vi } from "vitest";
import { logError } from "@/lib/log";
import { withRequestId } from "@/lib/ops/request-context";

describe("log lines", () => {
  afterEach(() => vi.restoreAllMocks());

  it("carry the request id of the request they are written for, and none outside a request", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    await withRequestId("req-123", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logError("inside", new Error("boom"));
    });
    logError("outside");
    const [inside, outside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inside).toMatchObject({ level: "error", requestId: "req-123", message: "inside", error: "boom" });
    expect(outside).not.toHaveProperty("requestId");
  });
});
