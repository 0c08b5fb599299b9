import { loadClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { createReport } from "@/lib/reports/create-report";
import { ZCreateReport, type TReportProfile } from "@/lib/reports/schemas";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";

// Demo reporting: a complete reporting profile, two templates, and drafts that miss only what a KYC file
// would add (birthdate, occupation), for the dashboard and the browser tests.

export const DEMO_INDICATOR_CODES = ["STR-STRUCT", "STR-MULE", "STR-RAPID", "STR-PROFILE"];

export const DEMO_REPORTING_PROFILE: TReportProfile = {
  entityId: "1042",
  entityName: "Demo Payments Ltd",
  branch: "Head office",
  currencyCodeLocal: "KES",
  reportingPerson: {
    firstName: "Olga",
    lastName: "Officer",
    title: "MLRO",
    email: "officer@demo.test",
    phone: "+254700000100",
    occupation: "Money laundering reporting officer",
  },
  location: { address: "1 Harbour Road", city: "Nairobi", countryCode: "KE", zip: "00100" },
  indicatorCodes: DEMO_INDICATOR_CODES,
  codes: {
    contactType: "1",
    communicationType: "M",
    fundsCode: "K",
    transmode: { default: "A", bank: "B", card: "C" },
  },
};

export const DEMO_TEMPLATES = [
  {
    id: "tpl-structuring",
    title: "Structuring below the reporting threshold",
    reason: "Repeated payouts just below the reporting threshold within a short period.",
    action: "Account placed under enhanced monitoring.",
    indicators: ["STR-STRUCT"],
  },
  {
    id: "tpl-mule",
    title: "Suspected money mule",
    reason: "Funds received from several unrelated senders and paid out immediately.",
    action: "Payouts suspended pending review.",
    indicators: ["STR-MULE", "STR-RAPID"],
  },
];

export async function seedDemoReports(clientId: string): Promise<void> {
  await prisma.client.update({ where: { id: clientId }, data: { reportingProfile: DEMO_REPORTING_PROFILE } });
  for (const t of DEMO_TEMPLATES) await prisma.reportTemplate.create({ data: { clientId, ...t } });

  const client = await loadClientContext(clientId, "seed");
  const now = Date.now();
  const user = ZUser.parse({
    id: "demo-report-subject",
    timestamp: now - 90 * 86_400_000,
    firstName: "Daniel",
    lastName: "Kamau",
    phone: { phone: "+254711222333", country: "KE" },
    email: { email: "daniel.kamau@example.com" },
    address: { postalCode: "00200", country: "KE", city: "Nairobi", street: "12 Moi Avenue" },
    documents: [{ type: "national_id", number: "29384756", country: "KE" }],
    taxNumberId: "A012345678Z",
  });
  const second = ZUser.parse({
    id: "demo-report-subject-2",
    timestamp: now - 40 * 86_400_000,
    firstName: "Grace",
    lastName: "Wanjiru",
    dateOfBirth: "1993-02-11",
    phone: { phone: "+254722333444", country: "KE" },
    address: { postalCode: "40100", country: "KE", city: "Kisumu" },
  });
  await prisma.$transaction(async (tx) => {
    await upsertUser(tx, { clientId, user, source: "api" });
    await upsertUser(tx, { clientId, user: second, source: "api" });
  });
  const transactions = [0, 1].map((i) =>
    ZTransaction.parse({
      id: `demo-report-tx-${i + 1}`,
      userId: user.id,
      status: "APPROVED",
      currencyCode: "KES",
      amount: 95_000 + i * 2_500,
      timestamp: now - (3 - i) * 3_600_000,
      direction: "payout",
      actionType: "withdrawal",
      paymentMethod: "bank",
      bank: {
        bankName: "Harbour Bank",
        routingNumber: "HB001",
        accountNumber: `00123456${i}`,
        accountHolderName: "Peter Otieno",
      },
      recipient: {
        firstName: "Peter",
        lastName: "Otieno",
        address: { postalCode: "80100", country: "KE", city: "Mombasa" },
        paymentMethod: "bank",
        bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: `00123456${i}` },
      },
    }),
  );
  for (const body of transactions) await screenTransaction({ client, body });

  await createReport({
    client,
    body: ZCreateReport.parse({
      id: "demo-report-1",
      reportType: "STR",
      reportNumber: "CASE-2026-001",
      templateId: "tpl-structuring",
      userId: user.id,
      transactionIds: transactions.map((t) => t.id),
    }),
  });
  await createReport({
    client,
    body: ZCreateReport.parse({
      id: "demo-report-2",
      reportType: "SAR",
      reportNumber: "CASE-2026-002",
      templateId: "tpl-mule",
      userId: second.id,
    }),
  });
}
