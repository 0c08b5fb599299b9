// Query keys of the case inbox and case page: one factory, so a mutation invalidates exactly what it changed.
export type TCaseFilters = {
  status: string;
  priority?: string;
  assignee?: string;
  overdue?: string;
  ruleId?: string;
  userId?: string;
};

export const caseKeys = {
  all: ["cases"] as const,
  list: (filters: TCaseFilters, cursor: string | undefined) =>
    [...caseKeys.all, "list", filters, cursor ?? null] as const,
  detail: (caseId: string) => [...caseKeys.all, "detail", caseId] as const,
  sla: () => [...caseKeys.all, "sla"] as const,
};
