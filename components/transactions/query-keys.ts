// Query keys of the transaction screens: one factory, so a mutation invalidates exactly what it changed.
export type TTransactionFilters = {
  userId?: string;
  riskLevel?: string;
  status?: string;
  from?: string;
  to?: string;
};

export const transactionKeys = {
  all: ["transactions"] as const,
  list: (filters: TTransactionFilters, cursor: string | undefined) =>
    [...transactionKeys.all, "list", filters, cursor ?? null] as const,
};
