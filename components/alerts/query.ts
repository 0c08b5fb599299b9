// Query keys of the reviewer screens: one factory, so a mutation invalidates exactly what it changed.
export type TAlertFilters = {
  status: string;
  level?: string;
  ruleId?: string;
  assigned?: string;
  from?: string;
  to?: string;
};

export const alertKeys = {
  all: ["alerts"] as const,
  list: (filters: TAlertFilters, cursor: string | undefined) =>
    ["alerts", "list", filters, cursor ?? null] as const,
};

export const transactionKeys = {
  all: ["transactions"] as const,
  list: (filters: Record<string, string | undefined>, cursor: string | undefined) =>
    ["transactions", "list", filters, cursor ?? null] as const,
};

export const userKeys = {
  all: ["users"] as const,
  list: (filters: Record<string, string | undefined>, cursor: string | undefined) =>
    ["users", "list", filters, cursor ?? null] as const,
};
