// Hostile client-supplied values for the browser tests, screened like any other traffic so that they
// reach every list (cases, alerts, transactions, users): a name of 800 characters without a space,
// and one with a right-to-left override inside ("\u202Eevil" displays as "live" unless isolated).
import { loadClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { DEMO } from "@/prisma/seed";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";

export const LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff".repeat(23).slice(0, 800);
export const RLO_NAME = "\u202Eevil";
export const HOSTILE_USERS = { long: "e2e-hostile-long-name", rlo: "e2e-hostile-rlo-name" };

export async function seedHostile(): Promise<void> {
  const { id: clientId } = await prisma.client.findFirstOrThrow({
    where: { name: DEMO.clientName },
    orderBy: { createdAt: "asc" },
  });
  const client = await loadClientContext(clientId, "seed");
  const now = Date.now();
  const people = [
    { id: HOSTILE_USERS.long, firstName: LONG_NAME, lastName: "X" },
    { id: HOSTILE_USERS.rlo, firstName: RLO_NAME, lastName: "Trader" },
  ];
  for (const [i, p] of people.entries()) {
    // a payout large enough for the demo rules to alert, so the user also gets a case
    const body = ZTransaction.parse({
      id: `${p.id}-tx`,
      user: { id: p.id, firstName: p.firstName, lastName: p.lastName, timestamp: now - 86_400_000 },
      status: "APPROVED",
      currencyCode: "KES",
      amount: 1_950_000,
      timestamp: now - (i + 1) * 60_000,
      direction: "payout",
      actionType: "withdrawal",
      paymentMethod: "bank",
      bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: `99${i}` },
    });
    await screenTransaction({ client, body });
  }
}

if (process.argv[1]?.endsWith("seed-hostile.ts")) {
  await seedHostile();
  await prisma.$disconnect();
}
