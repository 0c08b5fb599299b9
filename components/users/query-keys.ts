// Query keys of the user screens: one factory, so a mutation invalidates exactly what it changed.
export type TUserFilters = { q?: string; status?: string };

export const userKeys = {
  all: ["users"] as const,
  list: (filters: TUserFilters, cursor: string | undefined) =>
    [...userKeys.all, "list", filters, cursor ?? null] as const,
};
