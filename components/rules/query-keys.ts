// Query keys of the rule screens: one factory, so a mutation invalidates exactly what it changed.
export const ruleKeys = {
  all: ["rules"] as const,
  detail: (ruleId: string) => [...ruleKeys.all, "detail", ruleId] as const,
  validation: (definition: unknown) => [...ruleKeys.all, "validate", definition] as const,
  backtest: (ruleId: string) => [...ruleKeys.all, "backtest", ruleId] as const,
};
