// Demo lists for `npm run dev`: a deny list of emails, one of IP ranges, and the two rules that read them.
import { importListEntries, type TParsedEntry } from "@/lib/lists/import-list-entries";
import { entryKey } from "@/lib/lists/entry-key";
import type { TListKind } from "@/lib/lists/schemas";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import type { TRuleDefinition } from "@/lib/rules/schemas";

export const DEMO_LISTS: Array<{
  name: string;
  kind: TListKind;
  description: string;
  entries: Array<{ value: string; note?: string }>;
}> = [
  {
    name: "blocked_emails",
    kind: "email",
    description: "Emails of confirmed fraudsters",
    entries: [
      { value: "mule.account@example.com", note: "Confirmed mule, case 2026-114" },
      { value: "chargeback.king@example.net", note: "Serial chargebacks" },
    ],
  },
  {
    name: "risky_ip_ranges",
    kind: "ip",
    description: "Anonymising proxies and hosting ranges seen in account takeovers",
    entries: [
      { value: "203.0.113.0/24", note: "Proxy provider (documentation range)" },
      { value: "198.51.100.23", note: "Takeover of demo-user-3" },
      { value: "2001:db8:bad::/48", note: "Hosting range (documentation prefix)" },
    ],
  },
];

export const LIST_RULES: TRuleDefinition[] = [
  {
    id: "LIST-BLOCKED-EMAIL",
    name: "User email on the blocked list",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "The user's email is on the blocked_emails list",
    condition: 'inList("blocked_emails", user.?email.?email.orValue(""))',
  },
  {
    id: "LIST-RISKY-IP",
    name: "Device IP in a risky range",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "STEP_UP_AUTH",
    reason: "The device's IP address is in the risky_ip_ranges list",
    condition: 'inList("risky_ip_ranges", transaction.?userDevice.?ipAddress.orValue(""))',
  },
];

export async function seedDemoLists(clientId: string): Promise<void> {
  for (const list of DEMO_LISTS) {
    const entries: TParsedEntry[] = list.entries.map((e) => {
      const key = entryKey(list.kind, e.value);
      if ("error" in key) throw new Error(key.error);
      return { value: e.value, key: key.key, note: e.note ?? null, expiresAt: null };
    });
    await importListEntries({
      clientId,
      name: list.name,
      kind: list.kind,
      entries,
      replace: true,
      actor: "cli",
      source: "demo seed",
    });
    await prisma.list.update({
      where: { clientId_name: { clientId, name: list.name } },
      data: { description: list.description },
    });
  }
  await importRules({ clientId, rules: LIST_RULES, actor: "seed" });
}
