import { describe, expect, it } from "vitest";
import { baseAmountOf, buildFxTable } from "@/lib/fx/rates";

const at = (date: string) => Date.parse(`${date}T15:30:00Z`);

describe("baseAmountOf", () => {
  const table = buildFxTable([
    ["KES", "2026-11-10", 130],
    ["KES", "2026-11-01", 129.2],
    ["EUR", "2026-11-01", 0.92],
  ]);

  it("uses the rate of the date, or of the nearest earlier date", () => {
    expect(
      baseAmountOf(table, "USD", { currencyCode: "KES", amount: 1300, timestamp: at("2026-11-10") }),
    ).toMatchObject({
      baseAmount: 10,
      rateDates: { KES: "2026-11-10" },
    });
    expect(
      baseAmountOf(table, "USD", { currencyCode: "KES", amount: 1292, timestamp: at("2026-11-09") }),
    ).toMatchObject({
      baseAmount: 10,
      rateDates: { KES: "2026-11-01" },
    });
  });

  it("converts through USD when neither side is USD, and rounds to 8 decimals", () => {
    const fx = baseAmountOf(table, "EUR", {
      currencyCode: "KES",
      amount: 95_000,
      timestamp: at("2026-11-05"),
    });
    expect(fx.rate).toBeCloseTo(0.92 / 129.2, 15);
    expect(fx.baseAmount).toBe(Number((95_000 * (0.92 / 129.2)).toFixed(8)));
    expect(fx.rateDates).toEqual({ KES: "2026-11-01", EUR: "2026-11-01" });
  });

  it("needs no table for the base currency itself", () => {
    expect(baseAmountOf(new Map(), "EUR", { currencyCode: "EUR", amount: 12.5, timestamp: 0 })).toEqual({
      currency: "EUR",
      baseCurrency: "EUR",
      amount: 12.5,
      baseAmount: 12.5,
      rate: 1,
    });
  });

  it("leaves baseAmount out, with a note, when either currency has no rate on or before the date", () => {
    const before = baseAmountOf(table, "USD", {
      currencyCode: "KES",
      amount: 1,
      timestamp: at("2026-10-31"),
    });
    expect(before).not.toHaveProperty("baseAmount");
    expect(before.note).toBe(
      "No exchange rate for KES on or before 2026-10-31: transaction.baseAmount is absent",
    );
    const base = baseAmountOf(table, "GBP", { currencyCode: "KES", amount: 1, timestamp: at("2026-11-20") });
    expect(base.note).toBe(
      "No exchange rate for GBP on or before 2026-11-20: transaction.baseAmount is absent",
    );
  });
});
