// Query keys of the alerts queue: one factory, so a mutation invalidates exactly what it changed.
export type TAlertFilters = {
  status: string;
  level?: string;
  ruleId?: string;
  assigned?: string;
  userId?: string;
  from?: string;
  to?: string;
};

export const alertKeys = {
  all: ["alerts"] as const,
  list: (filters: TAlertFilters, cursor: string | undefined) =>
    ["alerts", "list", filters, cursor ?? null] as const,
  explanation: (alertId: string) => ["alerts", "explanation", alertId] as const,
};
