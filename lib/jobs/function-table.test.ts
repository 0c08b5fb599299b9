import { Inngest } from "inngest";
import { describe, expect, it } from "vitest";
import { describeFunctions } from "@/lib/jobs/function-table";

describe("describeFunctions", () => {
  it("gives each function its serve id, event triggers, attempts, version and batch size", () => {
    const client = new Inngest({ id: "app", isDev: true });
    const a = client.createFunction(
      { id: "a", retries: 2, triggers: [{ event: "x/one" }, { event: "x/two" }] },
      () => null,
    );
    const b = client.createFunction(
      { id: "b", triggers: [{ event: "x/one" }, { cron: "0 * * * *" }] },
      () => null,
    );
    const c = client.createFunction(
      { id: "c", retries: 0, triggers: [{ event: "x/two" }], batchEvents: { maxSize: 50, timeout: "1s" } },
      () => null,
    );
    expect(describeFunctions("app", [a, b, c], { b: 2 })).toEqual([
      { id: "app-a", events: ["x/one", "x/two"], maxAttempts: 3, version: 1 },
      { id: "app-b", events: ["x/one"], maxAttempts: 5, version: 2 },
      { id: "app-c", events: ["x/two"], maxAttempts: 1, version: 1, batchSize: 50 },
    ]);
  });
});
