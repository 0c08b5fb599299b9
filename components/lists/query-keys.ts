// Query keys of the lists screens.
export const listKeys = {
  all: ["lists"] as const,
  index: ["lists", "index"] as const,
  entries: (listId: string, filter: { q: string; page: number }) =>
    ["lists", "entries", listId, filter] as const,
  allEntries: (listId: string) => ["lists", "entries", listId] as const,
};
