// Who a user paid and who paid the user (dashboard): recipients of the user's transactions by stored
// id, account or wallet, and senders whose transactions named the user as recipient by id. Both read
// at most `limit` transactions, newest first, through an index: ("clientId", "userId", "occurredAt")
// for the user's own, ("clientId", recipient id, "occurredAt") (partial) for the received ones.
import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";

export type TCounterparty = {
  direction: "sent" | "received";
  /** The other party's stored user id, when the transaction named one. */
  userId: string | null;
  /** What identifies the party when there is no id: an account number or a wallet. */
  account: string | null;
  wallet: string | null;
  transactions: number;
  firstAt: string;
  lastAt: string;
};

type TRow = {
  direction: "sent" | "received";
  userId: string | null;
  account: string | null;
  wallet: string | null;
  at: Date;
};

export async function findCounterparties(
  db: Pick<Tx, "$queryRaw">,
  {
    clientId,
    userId,
    since,
    limit = 1000,
  }: { clientId: string; userId: string; since?: Date; limit?: number },
): Promise<TCounterparty[]> {
  const after = since ? Prisma.sql`AND t."occurredAt" >= ${since}` : Prisma.empty;
  const rows = await db.$queryRaw<TRow[]>(Prisma.sql`
    WITH sent AS (
      SELECT t."data", t."occurredAt" FROM "transactions" t
      WHERE t."clientId" = ${clientId} AND t."userId" = ${userId} ${after}
      ORDER BY t."occurredAt" DESC LIMIT ${limit}),
    received AS (
      SELECT t."userId", t."occurredAt" FROM "transactions" t
      WHERE t."clientId" = ${clientId} AND (t."data" #>> '{recipient,id}') = ${userId} ${after}
      ORDER BY t."occurredAt" DESC LIMIT ${limit})
    SELECT 'sent' AS "direction", r.e ->> 'id' AS "userId",
      coalesce(r.e #>> '{bank,accountNumber}', r.e #>> '{bank,ibanFull}') AS "account",
      coalesce(r.e #>> '{crypto,address}', r.e #>> '{wallet,phone}', r.e #>> '{wallet,taxNumberId}') AS "wallet",
      s."occurredAt" AS "at"
    FROM sent s CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(s."data" -> 'recipients') = 'array' THEN s."data" -> 'recipients'
           WHEN jsonb_typeof(s."data" -> 'recipient') = 'object' THEN jsonb_build_array(s."data" -> 'recipient')
           ELSE '[]'::jsonb END) AS r(e)
    UNION ALL
    SELECT 'received', "userId", NULL, NULL, "occurredAt" FROM received WHERE "userId" IS NOT NULL`);
  const parties = new Map<string, TCounterparty>();
  for (const r of rows) {
    if (r.userId === null && r.account === null && r.wallet === null) continue;
    const key = JSON.stringify([
      r.direction,
      r.userId ?? null,
      r.userId ? null : r.account,
      r.userId ? null : r.wallet,
    ]);
    const at = r.at.toISOString();
    const known = parties.get(key);
    if (!known) {
      parties.set(key, {
        direction: r.direction,
        userId: r.userId,
        account: r.account,
        wallet: r.wallet,
        transactions: 1,
        firstAt: at,
        lastAt: at,
      });
    } else {
      known.transactions++;
      if (at < known.firstAt) known.firstAt = at;
      if (at > known.lastAt) known.lastAt = at;
    }
  }
  return [...parties.values()].sort(
    (a, b) => b.transactions - a.transactions || (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0),
  );
}
