import { describe, expect, it } from "vitest";
import { RISK_LEVELS, RISK_LEVELS_MOST_SEVERE_FIRST, riskRank } from "@/lib/risk/risk-levels";

describe("risk levels", () => {
  it("ranks as the database's risk_rank(): low 1 … very_high 5, anything else 0", () => {
    expect(RISK_LEVELS.map(riskRank)).toEqual([1, 2, 3, 4, 5, 0]);
    expect(riskRank("unknown")).toBe(0);
    expect(riskRank("constructor")).toBe(0);
  });

  it("lists the rule scale most severe first", () => {
    expect(RISK_LEVELS_MOST_SEVERE_FIRST).toEqual(["very_high", "high", "medium", "medium_low", "low"]);
  });
});
