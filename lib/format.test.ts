import { describe, expect, it } from "vitest";
import {
  formatAggregate,
  formatCount,
  formatDate,
  formatDateTime,
  formatDateTimeUtc,
  formatFixed,
  formatEnum,
  formatMoney,
  formatNumber,
  formatExactNumber,
  formatPercent,
  formatPerson,
  formatTimeOfDay,
  formatWindow,
  revealInvisible,
} from "@/lib/format";

describe("formatMoney", () => {
  it("groups thousands, shows the currency's minor digits and puts the code after the amount", () => {
    expect(formatMoney(60000, "USD")).toBe("60,000.00 USD");
    expect(formatMoney("1234.5", "EUR")).toBe("1,234.50 EUR");
    expect(formatMoney(0.1, "GBP")).toBe("0.10 GBP");
  });

  it("uses the currency's own minor units", () => {
    expect(formatMoney(1500, "JPY")).toBe("1,500 JPY");
    expect(formatMoney("12.345", "KWD")).toBe("12.345 KWD");
  });

  it("keeps every digit of a large decimal string", () => {
    expect(formatMoney("12345678901234567.25", "USD")).toBe("12,345,678,901,234,567.25 USD");
  });

  it("formats an unknown currency code with two decimals and an empty amount as a dash", () => {
    expect(formatMoney(5, "XBT")).toBe("5.00 XBT");
    expect(formatMoney(null, "USD")).toBe("—");
  });
});

describe("dates", () => {
  const instant = Date.UTC(2026, 10, 23, 19, 49, 5);

  it("writes the year and the time in the requested zone", () => {
    expect(formatDateTime(instant, "UTC")).toBe("23 Nov 2026, 19:49");
    expect(formatDateTime(new Date(instant), "Asia/Tokyo")).toBe("24 Nov 2026, 04:49");
    expect(formatDateTime(new Date(instant).toISOString(), "America/New_York")).toBe("23 Nov 2026, 14:49");
  });

  it("accepts milliseconds as a number or a digit string", () => {
    expect(formatDate(String(instant), "UTC")).toBe("23 Nov 2026");
    expect(formatDate(instant, "Pacific/Kiritimati")).toBe("24 Nov 2026");
  });

  it("writes a time of day with seconds", () => {
    expect(formatTimeOfDay(instant, "UTC")).toBe("19:49:05");
    expect(formatTimeOfDay(instant, "Asia/Kolkata")).toBe("01:19:05");
  });

  it("gives the exact UTC instant for a title", () => {
    expect(formatDateTimeUtc(instant)).toBe("2026-11-23 19:49:05 UTC");
  });

  it("shows a dash for missing or invalid values", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDate("not a date")).toBe("—");
  });
});

describe("formatEnum", () => {
  it.each([
    ["STEP_UP_AUTH", "Step-up auth"],
    ["STEP_UP_ID", "Step-up ID"],
    ["very_high", "Very high"],
    ["in_review", "In review"],
    ["dry-run", "Dry run"],
    ["REPORT_SUSPICIOUS", "Report suspicious"],
    ["n/a", "N/A"],
    ["BLOCK", "Block"],
    ["false_positive", "False positive"],
    ["resubmission_required", "Resubmission required"],
    ["api_key", "API key"],
  ])("%s → %s", (value, label) => {
    expect(formatEnum(value)).toBe(label);
  });
});

describe("formatPerson, formatNumber, formatPercent", () => {
  it("prefers the display name and falls back to the email", () => {
    expect(formatPerson({ name: "Rita Reviewer", email: "rita@bank.test" })).toBe("Rita Reviewer");
    expect(formatPerson({ name: "  ", email: "rita@bank.test" })).toBe("rita@bank.test");
    expect(formatPerson({ email: "rita@bank.test" })).toBe("rita@bank.test");
  });

  it("groups numbers and writes ratios as percentages", () => {
    expect(formatNumber(1234567.5)).toBe("1,234,567.5");
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatFixed(1, 2)).toBe("1.00");
    expect(formatFixed(0.876, 2)).toBe("0.88");
  });
});

describe("aggregates in words", () => {
  it("says what is counted or summed, over what, grouped how, in which window", () => {
    expect(
      formatAggregate({
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        where: "transaction.amount >= 1000",
      }),
    ).toBe(
      "Number of transactions with the same userId in the last 24 hours, where transaction.amount >= 1000",
    );
    expect(
      formatAggregate({
        function: "sum",
        over: "transaction",
        groupBy: "userId",
        window: "1d",
        field: "amount",
      }),
    ).toBe("Sum of amount of the transactions with the same userId in the last 1 day");
    expect(
      formatAggregate({
        function: "countDistinct",
        over: "event",
        groupBy: "userId",
        window: "30m",
        field: "ipAddress",
      }),
    ).toBe(
      "Number of distinct ipAddress values among the events with the same userId in the last 30 minutes",
    );
    expect(formatWindow("90s")).toBe("90 seconds");
  });
});

describe("formatCount", () => {
  it("names one thing in the singular, and none or many in the plural, grouped", () => {
    expect(formatCount(1, "transaction")).toBe("1 transaction");
    expect(formatCount(0, "open alert")).toBe("0 open alerts");
    expect(formatCount(1200, "case")).toBe("1,200 cases");
    expect(formatCount(2, "entry", "entries")).toBe("2 entries");
  });
});

describe("formatExactNumber", () => {
  it("keeps every digit and groups the integer part", () => {
    expect(formatExactNumber(9999.99996)).toBe("9,999.99996");
    expect(formatExactNumber(13157.89899154)).toBe("13,157.89899154");
    expect(formatExactNumber(-1234567)).toBe("-1,234,567");
    expect(formatExactNumber(12.5)).toBe("12.5");
    expect(formatExactNumber(1e-7)).toBe("1e-7");
  });
});

describe("revealInvisible", () => {
  it("shows direction overrides, isolates, zero-width and control characters as markers", () => {
    expect(revealInvisible("\u202Eevil")).toBe("⟨U+202E⟩evil");
    expect(revealInvisible("a\u2067b\u2069c\u200Bd\u0007")).toBe("a⟨U+2067⟩b⟨U+2069⟩c⟨U+200B⟩d⟨U+0007⟩");
    expect(revealInvisible("Иван Петров محمد")).toBe("Иван Петров محمد");
  });
});
