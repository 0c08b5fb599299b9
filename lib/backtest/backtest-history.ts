// The stored history a backtest replays, per rule subject: transactions and events are their stored
// records (one per id, the latest body); onboarded users, merchants and payment instruments are the
// screenings recorded as decisions. Each comes with the CEL variables it was screened with.
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TRuleSubject } from "@/lib/rules/schemas";
import { storedEntity, storedMerchant } from "@/lib/screening/assessment";

export type THistoryItem = {
  /** The screened record's id (transaction, event, user, merchant or instrument id). */
  subjectId: string;
  occurredAt: number;
  /** Keyset position of the item, unique within the subject. */
  key: string;
  amount?: string;
  currencyCode?: string;
  variables: Record<string, unknown>;
};

export type TCursor = { at: number; key: string };

export function encodeCursor(item: THistoryItem): string {
  return `${item.occurredAt}:${item.key}`;
}

export function decodeCursor(cursor: string | null): TCursor | null {
  if (!cursor) return null;
  const at = cursor.indexOf(":");
  return { at: Number(cursor.slice(0, at)), key: cursor.slice(at + 1) };
}

const RECORD_TABLES = { transaction: "transactions", event: "events" } as const;

/** How many items the period holds, counted up to `cap`. */
export async function countHistory(
  clientId: string,
  subject: TRuleSubject,
  from: Date,
  to: Date,
  cap: number,
): Promise<number> {
  const source =
    subject === "transaction" || subject === "event"
      ? Prisma.sql`SELECT 1 FROM ${Prisma.raw(`"${RECORD_TABLES[subject]}"`)}
          WHERE "clientId" = ${clientId} AND "occurredAt" >= ${from} AND "occurredAt" <= ${to} LIMIT ${cap}`
      : Prisma.sql`SELECT 1 FROM "decisions" WHERE "clientId" = ${clientId} AND "subjectType" = ${subject}
          AND "createdAt" >= ${from} AND "createdAt" <= ${to} LIMIT ${cap}`;
  const [row] = await prisma.$queryRaw<Array<{ n: bigint }>>(
    Prisma.sql`SELECT count(*) AS n FROM (${source}) s`,
  );
  return Number(row?.n ?? 0);
}

/** The next `limit` items of the period after `cursor`, oldest first. */
export async function readHistory(
  clientId: string,
  subject: TRuleSubject,
  { from, to, cursor, limit }: { from: Date; to: Date; cursor: TCursor | null; limit: number },
): Promise<THistoryItem[]> {
  if (subject === "transaction" || subject === "event") {
    return readRecords(clientId, subject, { from, to, cursor, limit });
  }
  const rows = await prisma.$queryRaw<
    Array<{ id: string; subjectId: string; createdAt: Date; input: unknown }>
  >(Prisma.sql`
    SELECT "id", "subjectId", "createdAt", "input" FROM "decisions"
    WHERE "clientId" = ${clientId} AND "subjectType" = ${subject}
      AND "createdAt" >= ${from} AND "createdAt" <= ${to}
      ${cursor ? Prisma.sql`AND ("createdAt", "id") > (${new Date(cursor.at)}, ${cursor.key})` : Prisma.empty}
    ORDER BY "createdAt", "id" LIMIT ${limit}`);
  return rows.map((row) => ({
    subjectId: row.subjectId,
    occurredAt: row.createdAt.getTime(),
    key: row.id,
    variables: recordedVariables(row.input) ?? {},
  }));
}

function recordedVariables(input: unknown): Record<string, unknown> | undefined {
  const variables = (input as { variables?: unknown } | null)?.variables;
  return variables && typeof variables === "object" ? (variables as Record<string, unknown>) : undefined;
}

async function readRecords(
  clientId: string,
  subject: "transaction" | "event",
  { from, to, cursor, limit }: { from: Date; to: Date; cursor: TCursor | null; limit: number },
): Promise<THistoryItem[]> {
  const amount =
    subject === "transaction"
      ? Prisma.sql`"amount", "currencyCode"`
      : Prisma.sql`NULL AS "amount", NULL AS "currencyCode"`;
  const rows = await prisma.$queryRaw<
    Array<{
      id: string;
      occurredAt: Date;
      amount: Prisma.Decimal | null;
      currencyCode: string | null;
      data: unknown;
      userId: string | null;
      merchantId: string | null;
      decisionId: string | null;
    }>
  >(Prisma.sql`
    SELECT "id", "occurredAt", ${amount}, "data", "userId", "merchantId", "decisionId"
    FROM ${Prisma.raw(`"${RECORD_TABLES[subject]}"`)}
    WHERE "clientId" = ${clientId} AND "occurredAt" >= ${from} AND "occurredAt" <= ${to}
      ${cursor ? Prisma.sql`AND ("occurredAt", "id") > (${new Date(cursor.at)}, ${cursor.key})` : Prisma.empty}
    ORDER BY "occurredAt", "id" LIMIT ${limit}`);

  // the variables each record was screened with, from its decision; rebuilt when there is none
  const decisionIds = rows.flatMap((r) => (r.decisionId ? [r.decisionId] : []));
  const decisions = decisionIds.length
    ? await prisma.decision.findMany({
        where: { clientId, id: { in: decisionIds } },
        select: { id: true, input: true },
      })
    : [];
  const inputs = new Map(decisions.map((d) => [d.id, recordedVariables(d.input)]));
  const missing = rows.filter((r) => !(r.decisionId && inputs.get(r.decisionId)));
  const userIds = [...new Set(missing.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const merchantIds = [...new Set(missing.flatMap((r) => (r.merchantId ? [r.merchantId] : [])))];
  const [users, merchants] = await Promise.all([
    userIds.length ? prisma.user.findMany({ where: { clientId, id: { in: userIds } } }) : [],
    merchantIds.length ? prisma.merchant.findMany({ where: { clientId, id: { in: merchantIds } } }) : [],
  ]);
  const usersById = new Map(users.map((u) => [u.id, u]));
  const merchantsById = new Map(merchants.map((m) => [m.id, m]));
  return rows.map((row) => {
    let variables = row.decisionId ? inputs.get(row.decisionId) : undefined;
    if (!variables) {
      variables = { [subject]: row.data };
      const u = storedEntity(row.userId ? (usersById.get(row.userId) ?? null) : null);
      const m = storedMerchant(row.merchantId ? (merchantsById.get(row.merchantId) ?? null) : null);
      if (u) variables.user = u;
      if (m) variables.merchant = m;
    }
    return {
      subjectId: row.id,
      occurredAt: row.occurredAt.getTime(),
      key: row.id,
      ...(row.amount !== null && { amount: row.amount.toString() }),
      ...(row.currencyCode !== null && { currencyCode: row.currencyCode }),
      variables,
    };
  });
}
