// Query keys of the team screen.
export const teamKeys = { all: ["team"] as const };
