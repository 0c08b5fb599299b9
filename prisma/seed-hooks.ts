// Each capability that ships demo data (rules, history) adds a function here.
import { seedDemoFx } from "@/lib/fx/demo-fx";
import { seedDemoLists } from "@/lib/lists/demo-lists";
import { seedDemoRules } from "@/lib/rules/demo-rules";
import { seedDemoUsers } from "@/lib/users/demo-users";
import { seedDemoLinks } from "@/lib/links/demo-links";
import { seedDemoReports } from "@/lib/reports/demo-reports";
import { seedDemoSanctions } from "@/lib/sanctions/demo-sanctions";

export const seedHooks: Array<(clientId: string) => Promise<void>> = [
  // rates first: the demo transactions below are screened with their base amounts
  seedDemoFx,
  seedDemoRules,
  seedDemoLists,
  seedDemoUsers,
  seedDemoLinks,
  seedDemoReports,
  seedDemoSanctions,
];
