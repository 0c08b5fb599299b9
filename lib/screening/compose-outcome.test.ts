import { describe, expect, it } from "vitest";
import { ACTION_SEVERITY } from "@/lib/risk/risk-levels";
import { composeOutcome, type TRuleResult } from "@/lib/screening/compose-outcome";

const hit = (level: string, recommendedAction: string, status = "active"): TRuleResult => ({
  status,
  triggered: true,
  level,
  recommendedAction,
});
const miss = (level = "very_high", recommendedAction = "BLOCK", status = "active"): TRuleResult => ({
  status,
  triggered: false,
  level,
  recommendedAction,
});

describe("composeOutcome", () => {
  it("is n/a/ALLOW when no active rule exists", () => {
    expect(composeOutcome([])).toEqual({ riskLevel: "n/a", recommendedAction: "ALLOW" });
    expect(composeOutcome([hit("very_high", "BLOCK", "dry-run"), hit("high", "REVIEW", "muted")])).toEqual({
      riskLevel: "n/a",
      recommendedAction: "ALLOW",
    });
  });

  it("is low/ALLOW when active rules ran and none triggered", () => {
    expect(composeOutcome([miss(), miss("low", "REVIEW")])).toEqual({
      riskLevel: "low",
      recommendedAction: "ALLOW",
    });
    // dry-run and muted hits never change the answer
    expect(
      composeOutcome([miss(), hit("very_high", "BLOCK", "dry-run"), hit("high", "BLOCK", "muted")]),
    ).toEqual({
      riskLevel: "low",
      recommendedAction: "ALLOW",
    });
  });

  it("takes the highest level among triggered active rules", () => {
    expect(
      composeOutcome([hit("medium", "BLOCK"), hit("high", "MESSAGE_USER"), hit("low", "BLOCK")]),
    ).toEqual({
      riskLevel: "high",
      recommendedAction: "MESSAGE_USER",
    });
    expect(composeOutcome([hit("medium_low", "REVIEW"), hit("very_high", "ALLOW"), miss()])).toEqual({
      riskLevel: "very_high",
      recommendedAction: "ALLOW",
    });
    expect(composeOutcome([hit("low", "REVIEW"), hit("medium_low", "ALLOW")])).toEqual({
      riskLevel: "medium_low",
      recommendedAction: "ALLOW",
    });
  });

  it("breaks ties at the winning level by action severity, every step", () => {
    expect(ACTION_SEVERITY).toEqual([
      "BLOCK",
      "REPORT_SUSPICIOUS",
      "STEP_UP_ID",
      "STEP_UP_KYC",
      "STEP_UP_AUTH",
      "REVIEW",
      "FLAG_FOR_MONITORING",
      "MESSAGE_MERCHANT",
      "MESSAGE_USER",
      "ALLOW",
    ]);
    for (let i = 0; i < ACTION_SEVERITY.length - 1; i++) {
      const stronger = ACTION_SEVERITY[i]!;
      const weaker = ACTION_SEVERITY[i + 1]!;
      expect(composeOutcome([hit("high", weaker), hit("high", stronger)]).recommendedAction).toBe(stronger);
      expect(composeOutcome([hit("high", stronger), hit("high", weaker)]).recommendedAction).toBe(stronger);
    }
  });

  it("ignores a stronger action at a lower level", () => {
    expect(
      composeOutcome([hit("medium", "BLOCK"), hit("high", "REVIEW"), hit("high", "FLAG_FOR_MONITORING")]),
    ).toEqual({
      riskLevel: "high",
      recommendedAction: "REVIEW",
    });
  });
});
