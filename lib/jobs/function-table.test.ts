import { Inngest } from "inngest";
import { describe, expect, it } from "vitest";
import { describeFunctions } from "@/lib/jobs/function-table";

describe("describeFunctions", () => {
  it("gives each function its serve id, event triggers and attempts", () => {
    const client = new Inngest({ id: "app", isDev: true });
    const a = client.createFunction(
      { id: "a", retries: 2, triggers: [{ event: "x/one" }, { event: "x/two" }] },
      () => null,
    );
    const b = client.createFunction(
      { id: "b", triggers: [{ event: "x/one" }, { cron: "0 * * * *" }] },
      () => null,
    );
    expect(describeFunctions("app", [a, b])).toEqual([
      { id: "app-a", events: ["x/one", "x/two"], maxAttempts: 3 },
      { id: "app-b", events: ["x/one"], maxAttempts: 5 },
    ]);
  });
});
