import { z } from "zod";
import { isStorableDate, STORABLE_DATE_MESSAGE } from "@/lib/validation/timestamps";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decodeCursor, encodeCursor } from "@/lib/alerts/keyset-cursor";
import { RISK_LEVELS } from "@/lib/risk/risk-levels";
import { TRANSACTION_STATUSES } from "@/lib/transactions/schemas";

// Kept beside the function rather than in schemas.ts: a dashboard-only query shape, not part of /v1.
const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .transform((v) => new Date(`${v}T00:00:00.000Z`))
  .refine(isStorableDate, STORABLE_DATE_MESSAGE);

export const TRANSACTIONS_MAX_LIMIT = 100;

export const ZListTransactionsQuery = z.object({
  userId: z.preprocess(emptyAsUndefined, z.string().trim().max(200).optional()),
  riskLevel: z.preprocess(emptyAsUndefined, z.enum(RISK_LEVELS).optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(TRANSACTION_STATUSES).optional()),
  /** Inclusive days (UTC) of occurredAt. */
  from: z.preprocess(emptyAsUndefined, ZDay.optional()),
  to: z.preprocess(emptyAsUndefined, ZDay.optional()),
  cursor: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
  limit: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(TRANSACTIONS_MAX_LIMIT).default(50),
  ),
});
export type TListTransactionsQuery = z.infer<typeof ZListTransactionsQuery>;

export type TTransactionListItem = {
  id: string;
  userId: string | null;
  /** The user's name (first and last), when the user is known and named. */
  userName: string | null;
  merchantId: string | null;
  status: string;
  direction: string | null;
  paymentMethod: string | null;
  amount: string;
  currencyCode: string;
  riskLevel: string;
  recommendedAction: string;
  isFraud: boolean;
  isChargeback: boolean;
  occurredAt: number;
};

const DAY_MS = 86_400_000;

/**
 * Transactions newest first (by the interface's timestamp), keyset-paginated over the
 * (clientId, occurredAt) index, or (clientId, userId, occurredAt) when a user is chosen;
 * the risk-level and status filters have (clientId, riskLevel|status, occurredAt) indexes (migration dashboard_indexes)
 * and both together (clientId, riskLevel, status, occurredAt) (migration transactions_level_status_index).
 */
export async function listTransactions({
  clientId,
  query,
}: {
  clientId: string;
  query: TListTransactionsQuery;
}): Promise<{ transactions: TTransactionListItem[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor);
  const where: Prisma.TransactionWhereInput = {
    clientId,
    ...(query.userId && { userId: query.userId }),
    ...(query.riskLevel && { riskLevel: query.riskLevel }),
    ...(query.status && { status: query.status }),
    ...((query.from || query.to) && {
      occurredAt: { gte: query.from, lt: query.to ? new Date(query.to.getTime() + DAY_MS) : undefined },
    }),
    // The plain bound lets the index scan start at the cursor; the OR alone is only a filter, checked against
    // every newer row (a page 20 days deep read 6.7 million rows at 10 M).
    ...(cursor && {
      AND: [
        { occurredAt: { lte: cursor.at } },
        { OR: [{ occurredAt: { lt: cursor.at } }, { occurredAt: cursor.at, id: { lt: cursor.id } }] },
      ],
    }),
  };
  const rows = await prisma.transaction.findMany({
    where,
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    select: {
      id: true,
      userId: true,
      merchantId: true,
      status: true,
      direction: true,
      paymentMethod: true,
      amount: true,
      currencyCode: true,
      riskLevel: true,
      recommendedAction: true,
      isFraud: true,
      isChargeback: true,
      occurredAt: true,
    },
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  // the page's users by name, as the cases and alerts lists show them
  const userIds = [...new Set(page.map((t) => t.userId).filter((id): id is string => id !== null))];
  const users = userIds.length
    ? await prisma.user.findMany({
        where: { clientId, id: { in: userIds } },
        select: { id: true, firstName: true, lastName: true },
      })
    : [];
  const nameById = new Map(
    users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(" ") || null]),
  );
  return {
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.occurredAt, id: last.id }) : null,
    transactions: page.map((t) => ({
      ...t,
      userName: t.userId ? (nameById.get(t.userId) ?? null) : null,
      amount: t.amount.toString(),
      occurredAt: t.occurredAt.getTime(),
    })),
  };
}
