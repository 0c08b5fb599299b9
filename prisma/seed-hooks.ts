// Each capability that ships demo data (rules, history) adds a function here.
export const seedHooks: Array<(clientId: string) => Promise<void>> = [];
