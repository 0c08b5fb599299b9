// Query keys of the api-keys screen.
export const apiKeyKeys = { all: ["api-keys"] as const };
