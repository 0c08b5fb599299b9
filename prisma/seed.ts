// Demo data for `npm run dev`: a client, an API key, dashboard users and starter rules.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "@/lib/clients/create-client";
import { FEATURES } from "@/lib/clients/schemas";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { DATA_DIR } from "@/lib/embedded/server";
import { seedDemoMerchantRules } from "@/lib/rules/demo-rules";
import { seedHooks } from "@/prisma/seed-hooks";

export const DEMO = {
  clientName: "Demo Payments",
  admin: { email: "admin@demo.test", password: "demo-admin-password" },
  reviewer: { email: "reviewer@demo.test", password: "demo-reviewer-password" },
  officer: { email: "officer@demo.test", password: "demo-officer-password" },
  officer2: { email: "officer2@demo.test", password: "demo-officer-password" },
  /** A second client, of the business type, so merchant screening (business clients only) can be tried. */
  business: {
    clientName: "Demo Marketplace",
    admin: { email: "marketplace-admin@demo.test", password: "demo-marketplace-password" },
  },
};

type TDemoState = { clientId: string; apiKey: string; business?: { clientId: string; apiKey: string } };

async function seedBusinessDemo(): Promise<{ clientId: string; apiKey: string }> {
  const business = await createClient({
    name: DEMO.business.clientName,
    type: "business",
    features: [...FEATURES],
  });
  await createDashboardUser({
    clientId: business.clientId,
    ...DEMO.business.admin,
    role: "admin",
    name: "Mia Marketplace",
  });
  await seedDemoMerchantRules(business.clientId);
  return business;
}

export async function seedDemo({ print, baseUrl }: { print: boolean; baseUrl: string }): Promise<TDemoState> {
  mkdirSync(DATA_DIR, { recursive: true });
  const stateFile = path.join(DATA_DIR, "demo.json");
  let state: TDemoState | null = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, "utf8")) as TDemoState)
    : null;
  if (state && !(await prisma.client.findUnique({ where: { id: state.clientId } }))) state = null;

  if (!state) {
    state = await createClient({ name: DEMO.clientName, type: "consumer", features: [...FEATURES] });
    await createDashboardUser({ clientId: state.clientId, ...DEMO.admin, role: "admin", name: "Ada Admin" });
    await createDashboardUser({
      clientId: state.clientId,
      ...DEMO.reviewer,
      role: "reviewer",
      name: "Rui Reviewer",
    });
    await createDashboardUser({
      clientId: state.clientId,
      ...DEMO.officer,
      role: "reporting_officer",
      name: "Olga Officer",
    });
    await createDashboardUser({
      clientId: state.clientId,
      ...DEMO.officer2,
      role: "reporting_officer",
      name: "Omar Officer",
    });
    for (const hook of seedHooks) await hook(state.clientId);
    writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
  }
  // added to a data folder seeded before the business client existed, too
  let business = state.business;
  if (!business || !(await prisma.client.findUnique({ where: { id: business.clientId } }))) {
    business = await seedBusinessDemo();
    state = { ...state, business };
    writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
  }

  if (print) {
    console.log(
      [
        "",
        "  Demo client ready",
        `  API:        ${baseUrl}/v1   (reference: ${baseUrl}/docs)`,
        `  API key:    ${state.apiKey}`,
        `  Dashboard:  ${baseUrl}/login`,
        `  Admin:      ${DEMO.admin.email} / ${DEMO.admin.password}`,
        `  Reviewer:   ${DEMO.reviewer.email} / ${DEMO.reviewer.password}`,
        `  Officer:    ${DEMO.officer.email} / ${DEMO.officer.password}`,
        // reports need a second officer to approve what the first prepared (four eyes)
        `  Officer 2:  ${DEMO.officer2.email} / ${DEMO.officer2.password}`,
        "",
        `  Business demo client "${DEMO.business.clientName}" (merchant screening: POST /v1/merchantRequest)`,
        `  API key:    ${business.apiKey}`,
        `  Admin:      ${DEMO.business.admin.email} / ${DEMO.business.admin.password}`,
        "",
      ].join("\n"),
    );
  }
  return state;
}
