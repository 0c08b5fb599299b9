// Query keys of the network view: one factory, so a ring action invalidates exactly what it changed.
export type TNetworkFilters = { depth: "1" | "2"; kinds: string; since: string };

export const networkKeys = {
  all: ["network"] as const,
  user: (userId: string, filters: TNetworkFilters) => [...networkKeys.all, userId, filters] as const,
};
