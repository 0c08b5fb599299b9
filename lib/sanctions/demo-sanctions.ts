// Demo sanctions data for `npm run dev`: the synthetic fixture lists, two rules and a matching user.
import path from "node:path";
import { importRules } from "@/lib/rules/import-rules";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { importSanctions } from "@/lib/sanctions/import-sanctions";
import { loadClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { screenUser } from "@/lib/screening/screen-user";
import { ZTransaction } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";

export const SANCTIONS_FIXTURES = path.join(process.cwd(), "prisma", "fixtures", "sanctions");

const fullName = (v: string) => `${v}.?firstName.orValue("") + " " + ${v}.?lastName.orValue("")`;
const screened = (v: string) => `sanctionsScore(${fullName(v)}, ${v}.?dateOfBirth.orValue(""))`;
// the name alone: a listed name (or alias) with another birth date scores high here and low above
const nameOnly = (v: string) => `sanctionsScore(${fullName(v)})`;

export const SANCTIONS_THRESHOLD = 0.85;

export const SANCTIONS_RULES: TRuleDefinition[] = [
  {
    id: "SANCTIONS-USER",
    name: "User name on a sanctions list",
    subject: "user",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "REVIEW",
    reason: `Full name matches a sanctions list entry (score ${SANCTIONS_THRESHOLD} or more, birth date considered)`,
    condition: `${screened("user")} >= ${SANCTIONS_THRESHOLD}`,
  },
  {
    id: "SANCTIONS-RECIPIENT",
    name: "Recipient name on a sanctions list",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "REVIEW",
    reason: `A recipient's full name matches a sanctions list entry (score ${SANCTIONS_THRESHOLD} or more)`,
    condition:
      `(has(transaction.recipient) && ${screened("transaction.recipient")} >= ${SANCTIONS_THRESHOLD}) || ` +
      `(has(transaction.recipients) && transaction.recipients.exists(r, ${screened("r")} >= ${SANCTIONS_THRESHOLD}))`,
  },
  {
    // A different birth date lowers the score below the threshold, but a birth date can be wrong on
    // either side: a reviewer decides, at a lower priority than a full match.
    id: "SANCTIONS-USER-POSSIBLE",
    name: "Possible sanctions match (other birth date)",
    subject: "user",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: `Full name matches a sanctions list entry or alias (score ${SANCTIONS_THRESHOLD} or more) with another birth date`,
    condition: `${nameOnly("user")} >= ${SANCTIONS_THRESHOLD} && ${screened("user")} < ${SANCTIONS_THRESHOLD}`,
  },
];

/** Loads the fixture lists (once: they are shared by all clients), the two rules, a matching user and payout. */
export async function seedDemoSanctions(clientId: string): Promise<void> {
  if ((await prisma.sanctionsDataset.count()) === 0) {
    await importSanctions({
      file: path.join(SANCTIONS_FIXTURES, "targets.simple.csv"),
      format: "opensanctions",
    });
    await importSanctions({
      file: path.join(SANCTIONS_FIXTURES, "sdn.csv"),
      altFile: path.join(SANCTIONS_FIXTURES, "alt.csv"),
      format: "ofac",
    });
  }
  await importRules({ clientId, rules: SANCTIONS_RULES, actor: "seed" });
  const client = await loadClientContext(clientId, "seed");
  const now = Date.now();
  // "Wiktor Morozenko" is a one-letter variant of the listed "Viktor Morozenko", same birth date
  await screenUser({
    client,
    body: ZUser.parse({
      id: "demo-user-sanctioned",
      timestamp: now - 86_400_000,
      firstName: "Wiktor",
      lastName: "Morozenko",
      dateOfBirth: "1968-04-12",
      email: { email: "w.morozenko@example.com" },
      address: { postalCode: "101000", country: "RU", city: "Moscow" },
    }),
  });
  // an ordinary user paying out to a recipient listed by OFAC (in Cyrillic on the alt list)
  await screenTransaction({
    client,
    body: ZTransaction.parse({
      id: "demo-tx-sanctioned-recipient",
      userId: "demo-user-1",
      status: "PENDING",
      currencyCode: "EUR",
      amount: 2_400,
      direction: "payout",
      timestamp: now - 3_600_000,
      recipient: { id: "rcp-kovalenko", firstName: "Dmitriy", lastName: "Kovalenko" },
    }),
  });
}
