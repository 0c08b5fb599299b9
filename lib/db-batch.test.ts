import { describe, expect, it } from "vitest";
import { batcher } from "@/lib/db-batch";

describe("batcher", () => {
  it("sends a call to an idle batcher at once, and the calls that arrive meanwhile together", async () => {
    const statements: number[][] = [];
    const double = batcher<number, number>(async (items) => {
      statements.push(items);
      await new Promise((r) => setTimeout(r, 10));
      return items.map((n) => n * 2);
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => double(n)));
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(statements).toEqual([[1], [2, 3, 4]]);
  });

  it("never puts two items with one key in one statement, and caps a statement's size", async () => {
    const statements: string[][] = [];
    const run = batcher<string, string>(
      async (items) => {
        statements.push(items);
        return items;
      },
      { key: (s) => s.split(":")[0]!, max: 2 },
    );
    await Promise.all(["a:0", "a:1", "b:1", "a:2", "c:1"].map((s) => run(s)));
    expect(statements[0]).toEqual(["a:0"]);
    expect(statements.slice(1)).toEqual([
      ["a:1", "b:1"],
      ["a:2", "c:1"],
    ]);
  });

  it("rejects every call of a failed statement and goes on with the next", async () => {
    let calls = 0;
    const run = batcher<number, number>(async (items) => {
      calls++;
      if (items.includes(2)) throw new Error("boom");
      return items;
    });
    const first = run(1);
    const failed = Promise.allSettled([run(2), run(3)]);
    expect(await first).toBe(1);
    const [a, b] = await failed;
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("rejected");
    expect(await run(4)).toBe(4);
    expect(calls).toBe(3);
  });
});
