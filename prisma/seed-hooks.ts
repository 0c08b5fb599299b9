// Each capability that ships demo data (rules, history) adds a function here.
import { seedDemoRules } from "@/lib/rules/demo-rules";

export const seedHooks: Array<(clientId: string) => Promise<void>> = [seedDemoRules];
