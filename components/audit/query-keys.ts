// Query keys of the audit trail page.
export type TAuditFilters = {
  actorId?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: string;
  to?: string;
};

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: TAuditFilters, cursor: string | undefined) => ["audit", "list", filters, cursor] as const,
};
