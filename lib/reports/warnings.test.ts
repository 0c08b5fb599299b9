import { describe, expect, it } from "vitest";
import { reportWarnings, unconfirmedWarnings } from "@/lib/reports/warnings";

const NOW = new Date("2026-11-26T12:00:00Z");

describe("reportWarnings", () => {
  it("names amounts of zero or below, never a balance or a positive grouped amount", () => {
    const warnings = reportWarnings(
      {
        submission_date: "2026-11-26T09:00:00",
        transactions: [
          { amount_local: "0", t_from: { from_foreign_currency: { foreign_amount: -12.5 } } },
          { amount_local: "1,950,000.00", t_to: { to_account: { balance: "-300" } } },
        ],
      },
      NOW,
    );
    expect(warnings).toEqual([
      {
        path: "transactions[0].amount_local",
        message: "The amount is zero (0): an FIU expects a positive amount",
      },
      {
        path: "transactions[0].t_from.from_foreign_currency.foreign_amount",
        message: "The amount is negative (-12.5): an FIU expects a positive amount",
      },
    ]);
  });

  it("names birth dates in the future or over 120 years ago, and future incorporation dates", () => {
    const warnings = reportWarnings(
      {
        a: { birthdate: "2090-01-01T00:00:00" },
        b: { birthdate: "1906-11-25T00:00:00" },
        c: { birthdate: "1906-11-26T00:00:00" },
        d: { incorporation_date: "2027-01-01T00:00:00" },
      },
      NOW,
    );
    expect(warnings.map((w) => w.message)).toEqual([
      "The birth date 2090-01-01 is in the future",
      "The birth date 1906-11-25 is more than 120 years ago",
      "The incorporation date 2027-01-01 is in the future",
    ]);
  });

  it("compares transaction and value dates with the submission date, or today without one", () => {
    const tx = { date_transaction: "2026-11-27T08:00:00", value_date: "2026-11-26T23:00:00" };
    expect(reportWarnings({ transactions: [tx] }, NOW).map((w) => w.message)).toEqual([
      "The transaction date 2026-11-27 is in the future",
    ]);
    expect(
      reportWarnings({ submission_date: "2026-11-25T10:00:00", transactions: [tx] }, NOW).map(
        (w) => w.message,
      ),
    ).toEqual([
      "The transaction date 2026-11-27 is after the report's submission date 2026-11-25",
      "The value date 2026-11-26 is after the report's submission date 2026-11-25",
    ]);
    expect(reportWarnings({ submission_date: "2026-11-30T10:00:00" }, NOW)).toEqual([
      { path: "submission_date", message: "The submission date 2026-11-30 is in the future" },
    ]);
  });

  it("keeps a confirmation until a later edit touches the warned path", () => {
    const w = {
      path: "transactions[0].amount_local",
      message: "The amount is zero (0): an FIU expects a positive amount",
    };
    const confirmed = { action: "warnings_confirmed", changes: { warnings: [w], note: "ok" } };
    expect(unconfirmedWarnings([w], [confirmed])).toEqual([]);
    const other = { action: "fields_updated", changes: { fields: { "transactions[1].amount_local": {} } } };
    expect(unconfirmedWarnings([w], [confirmed, other])).toEqual([]);
    const same = { action: "fields_updated", changes: { fields: { "transactions[0].amount_local": {} } } };
    expect(unconfirmedWarnings([w], [confirmed, same])).toEqual([w]);
    const removed = { action: "fields_updated", changes: { removed: "transactions[0]" } };
    expect(unconfirmedWarnings([w], [confirmed, removed])).toEqual([w]);
    expect(unconfirmedWarnings([w], [same, confirmed])).toEqual([]);
  });
});
