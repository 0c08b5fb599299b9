import { readFileSync } from "node:fs";
import { loadClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { createReport } from "@/lib/reports/create-report";
import { GOAML_XSD_PATH } from "@/lib/reports/goaml-xml";
import { ZCreateReport, type TReportProfile } from "@/lib/reports/schemas";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";
import { saveUser } from "@/lib/users/save-user";

// Demo reporting: a complete reporting profile, two templates, and drafts that miss only what a KYC file
// would add (birthdate, occupation), for the dashboard and the browser tests. The profile's lookup codes are codes
// of the generic goAML 5.0.1 schema; the demo FIU's schema is that schema with its own indicator list (the generic
// one has only the placeholder "-"), the way a real FIU publishes its XSD.

export const DEMO_INDICATORS = [
  { value: "STR-STRUCT", label: "Structuring below the reporting threshold" },
  { value: "STR-MULE", label: "Account used as a money mule" },
  { value: "STR-RAPID", label: "Rapid movement of funds in and out" },
  { value: "STR-PROFILE", label: "Activity inconsistent with the customer's profile" },
  { value: "STR-CASH", label: "Unusual cash activity" },
  { value: "STR-PEP", label: "Politically exposed person involved" },
];
export const DEMO_INDICATOR_CODES = DEMO_INDICATORS.map((i) => i.value);
export const DEMO_SCHEMA_NAME = "Demo FIU goAML 5.0.1";

/** The generic goAML XSD with an FIU's indicator list in place of the placeholder. */
export function withIndicatorList(xsd: string, indicators: { value: string; label?: string }[]): string {
  const escape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const list = indicators
    .map((i) =>
      i.label
        ? `<xs:enumeration value="${escape(i.value)}"><xs:annotation><xs:documentation>${escape(i.label)}</xs:documentation></xs:annotation></xs:enumeration>`
        : `<xs:enumeration value="${escape(i.value)}" />`,
    )
    .join("\n      ");
  return xsd.replace(
    /(<xs:simpleType name="report_indicator_type">\s*<xs:restriction base="xs:string">)[\s\S]*?(<\/xs:restriction>)/,
    `$1\n      ${list}\n    $2`,
  );
}

export function demoFiuSchema(): string {
  return withIndicatorList(readFileSync(GOAML_XSD_PATH, "utf8"), DEMO_INDICATORS);
}

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
  indicatorMapping: {
    "TX-PAYOUT-VELOCITY": ["STR-STRUCT", "STR-RAPID"],
    "TX-LARGE-AMOUNT": ["STR-PROFILE"],
    "TX-VERY-LARGE-AMOUNT": ["STR-PROFILE", "STR-CASH"],
  },
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
  await prisma.client.update({
    where: { id: clientId },
    data: {
      reportingProfile: {
        ...DEMO_REPORTING_PROFILE,
        goamlSchemaName: DEMO_SCHEMA_NAME,
        goamlSchemaXsd: demoFiuSchema(),
      },
    },
  });
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
  await saveUser({ clientId, user });
  await saveUser({ clientId, user: second });
  const transactions = [0, 1].map((i) =>
    ZTransaction.parse({
      id: `demo-report-tx-${i + 1}`,
      userId: user.id,
      status: "APPROVED",
      currencyCode: "KES",
      // about 15,000 USD each: large amounts in the base currency (95,000 KES, about 735 USD, is not)
      amount: 1_950_000 + i * 25_000,
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
