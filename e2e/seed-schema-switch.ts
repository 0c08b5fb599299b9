// A client of its own for the schema-switch browser test (the shared demo client keeps its schema for the
// other specs): the demo reporting set-up (rules, profile, demo FIU schema, two drafts), an admin and an officer.
// Prints {"clientId","apiKey"}.
import { createClient } from "@/lib/clients/create-client";
import { FEATURES } from "@/lib/clients/schemas";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { seedDemoFx } from "@/lib/fx/demo-fx";
import { seedDemoReports } from "@/lib/reports/demo-reports";
import { seedDemoRules } from "@/lib/rules/demo-rules";
import { SWITCH } from "./seed-schema-switch-data";

const client = await createClient({ name: SWITCH.clientName, type: "consumer", features: [...FEATURES] });
await createDashboardUser({ clientId: client.clientId, ...SWITCH.admin, role: "admin", name: "Sami Admin" });
await createDashboardUser({
  clientId: client.clientId,
  ...SWITCH.officer,
  role: "reporting_officer",
  name: SWITCH.officerName,
});
await seedDemoFx();
await seedDemoRules(client.clientId);
await seedDemoReports(client.clientId);
console.log(JSON.stringify(client));
await prisma.$disconnect();
