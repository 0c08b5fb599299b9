// The contract's risk scales and recommended actions, written once (interface: RiskLevel, RecommendedAction,
// Merchant.riskLevel). Browser code imports this file too: keep it free of server-only imports.

/** Rule severity, least to most severe. */
export const RULE_RISK_LEVELS = ["low", "medium_low", "medium", "high", "very_high"] as const;
export type TRuleRiskLevel = (typeof RULE_RISK_LEVELS)[number];

/** A screening's answer: a rule level, or `n/a` when no active rule was evaluated. */
export const RISK_LEVELS = [...RULE_RISK_LEVELS, "n/a"] as const;
export type TRiskLevel = (typeof RISK_LEVELS)[number];

/** The rule scale most severe first, as pickers and case priorities list it. */
export const RISK_LEVELS_MOST_SEVERE_FIRST: readonly TRuleRiskLevel[] = [...RULE_RISK_LEVELS].reverse();

/** The level a client may pre-assign to a merchant: its own scale (`unknown`, no `medium_low`, no `n/a`). */
export const PREASSIGNED_RISK_LEVELS = ["unknown", "low", "medium", "high", "very_high"] as const;
export type TPreassignedRiskLevel = (typeof PREASSIGNED_RISK_LEVELS)[number];

/**
 * low 1 … very_high 5; `n/a`, `unknown` and anything else 0. The database's risk_rank() (cases migration)
 * holds the same table.
 */
export function riskRank(level: string): number {
  return (RULE_RISK_LEVELS as readonly string[]).indexOf(level) + 1;
}

export const RECOMMENDED_ACTIONS = [
  "ALLOW",
  "REVIEW",
  "BLOCK",
  "STEP_UP_AUTH",
  "STEP_UP_KYC",
  "STEP_UP_ID",
  "FLAG_FOR_MONITORING",
  "REPORT_SUSPICIOUS",
  "MESSAGE_USER",
  "MESSAGE_MERCHANT",
] as const;
export type TRecommendedAction = (typeof RECOMMENDED_ACTIONS)[number];

/** Recommended actions, most severe first: breaks ties between triggered rules at the winning level. */
export const ACTION_SEVERITY = [
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
] as const;
