// Each capability that ships demo data (rules, history) adds a function here.
import { seedDemoRules } from "@/lib/rules/demo-rules";
import { seedDemoUsers } from "@/lib/users/demo-users";
import { seedDemoReports } from "@/lib/reports/demo-reports";
import { seedDemoSanctions } from "@/lib/sanctions/demo-sanctions";

export const seedHooks: Array<(clientId: string) => Promise<void>> = [
  seedDemoRules,
  seedDemoUsers,
  seedDemoReports,
  seedDemoSanctions,
];
