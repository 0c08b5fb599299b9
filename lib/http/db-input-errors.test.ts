import { describe, expect, it } from "vitest";
import { dbInputError } from "@/lib/http/db-input-errors";

const driverError = (code: string) => ({
  code: "P2039",
  meta: { driverAdapterError: { cause: { originalCode: code, kind: "postgres" } } },
});

describe("dbInputError", () => {
  it("turns PostgreSQL's refusals of oversized or unstorable input into a 400", () => {
    const err = dbInputError(driverError("54000"));
    expect(err?.status).toBe(400);
    expect(err?.toBody().error).toEqual({
      type: "VALIDATION_ERROR",
      message: "Request validation failed",
      details: ["/: A value is too long to be stored or indexed"],
    });
    expect(dbInputError(driverError("22003"))?.status).toBe(400);
  });

  it("leaves every other failure a 500", () => {
    expect(dbInputError(driverError("40001"))).toBeUndefined();
    expect(dbInputError(new Error("boom"))).toBeUndefined();
    expect(dbInputError(null)).toBeUndefined();
  });
});
