// Demo ring: five users who share two devices and a payout account, one of them already confirmed as
// fraud, and a rule on user links that opens their cases, so the network view has something to show
// on first run.
import { loadClientContext } from "@/lib/clients/client-context";
import { importRules } from "@/lib/rules/import-rules";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { updateTransaction } from "@/lib/screening/update-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";
import { saveUser } from "@/lib/users/save-user";

const DAY = 86_400_000;
const HOUR = 3_600_000;

export const DEMO_RING = {
  users: [
    { id: "demo-ring-1", firstName: "Musa", lastName: "Kariuki", device: "fp-ring-a" },
    { id: "demo-ring-2", firstName: "Lena", lastName: "Otieno", device: "fp-ring-a" },
    { id: "demo-ring-3", firstName: "Joseph", lastName: "Mwangi", device: "fp-ring-a", second: "fp-ring-b" },
    { id: "demo-ring-4", firstName: "Faith", lastName: "Njeri", device: "fp-ring-b" },
    { id: "demo-ring-5", firstName: "Samuel", lastName: "Achieng", device: "fp-ring-b" },
  ],
  payoutAccount: "KE55 0420 0099 1234",
  /** The transaction confirmed as fraud (demo-ring-2's first payout). */
  fraudTransaction: "demo-ring-2-tx-1",
} as const;

export const DEMO_LINK_RULES: TRuleDefinition[] = [
  {
    id: "TX-LINKED-RING",
    name: "Linked to a ring",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "Shares a device with two or more other users, or is linked to a user confirmed as fraud",
    condition: 'links.count("deviceFingerprint") >= 2 || links.fraudCount() >= 1',
  },
];

function payout(id: string, userId: string, fingerprint: string, timestamp: number, amount: number) {
  return ZTransaction.parse({
    id,
    userId,
    status: "APPROVED",
    currencyCode: "KES",
    amount,
    timestamp,
    direction: "payout",
    actionType: "withdrawal",
    paymentMethod: "bank",
    bank: {
      bankName: "Harbour Bank",
      accountNumber: DEMO_RING.payoutAccount,
      accountHolderName: "M. Kariuki",
    },
    userDevice: { id: `${userId}-${fingerprint}`, fingerprint, platform: "android" },
  });
}

export async function seedDemoLinks(clientId: string): Promise<void> {
  const now = Date.now();
  for (const [i, u] of DEMO_RING.users.entries()) {
    const user = ZUser.parse({
      id: u.id,
      timestamp: now - (21 - i) * DAY,
      firstName: u.firstName,
      lastName: u.lastName,
      email: { email: `${u.firstName.toLowerCase()}.${u.lastName.toLowerCase()}@example.com` },
      address: { postalCode: "00100", country: "KE", city: "Nairobi" },
    });
    await saveUser({ clientId, user });
  }
  const client = await loadClientContext(clientId, "seed");
  // Ten days ago each member paid out to the shared account from its device: the links form.
  for (const [i, u] of DEMO_RING.users.entries()) {
    await screenTransaction({
      client,
      body: payout(`${u.id}-tx-1`, u.id, u.device, now - (10 * DAY - i * HOUR), 18_000 + i * 750),
    });
    if ("second" in u) {
      await screenTransaction({
        client,
        body: payout(`${u.id}-tx-1b`, u.id, u.second, now - (10 * DAY - i * HOUR - 600_000), 9_500),
      });
    }
  }
  await updateTransaction({
    client,
    body: {
      transactionId: DEMO_RING.fraudTransaction,
      isFraudulent: true,
      reason: "Confirmed by the bank: account taken over",
      type: "fraud_confirmed",
    },
  });
  // The rule, then today's payouts: every member fires it and gets a case.
  await importRules({ clientId, rules: DEMO_LINK_RULES, actor: "seed" });
  for (const [i, u] of DEMO_RING.users.entries()) {
    await screenTransaction({
      client,
      body: payout(`${u.id}-tx-2`, u.id, u.device, now - (5 - i) * HOUR, 24_000 + i * 1_100),
    });
  }
}
