import { describe, expect, it } from "vitest";
import { databaseUnavailable } from "@/lib/http/db-unavailable";

describe("databaseUnavailable", () => {
  it("maps connection failures to 503 SERVICE_UNAVAILABLE with Retry-After", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const cases: unknown[] = [
      refused,
      new AggregateError([refused], ""),
      Object.assign(new Error("terminating connection due to administrator command"), {
        code: "57P01",
        severity: "FATAL",
      }),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      Object.assign(new Error("driver adapter"), {
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
      }),
      Object.assign(new Error("prisma"), { code: "P1001" }),
      Object.assign(new Error("wrapped"), { cause: refused }),
    ];
    for (const err of cases) {
      const mapped = databaseUnavailable(err);
      expect(mapped?.status).toBe(503);
      expect(mapped?.toBody().error.type).toBe("SERVICE_UNAVAILABLE");
      expect(Number(mapped?.headers?.["Retry-After"])).toBeGreaterThan(0);
    }
  });

  it("leaves other errors alone", () => {
    expect(databaseUnavailable(new Error("boom"))).toBeUndefined();
    expect(databaseUnavailable(Object.assign(new Error("dup"), { code: "23505" }))).toBeUndefined();
    expect(databaseUnavailable(null)).toBeUndefined();
  });
});
