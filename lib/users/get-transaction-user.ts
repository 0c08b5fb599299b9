import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TUserRecord } from "@/lib/users/schemas";
import { serializeUser, USER_RECORD_SELECT } from "@/lib/users/serialize-user";
import { transactionUserId } from "@/lib/users/transaction-parties";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";

/** GET /v1/users/transactions/{transactionId}: the user who made the transaction. */
export async function getTransactionUser({
  clientId,
  transactionId,
}: {
  clientId: string;
  transactionId: string;
}): Promise<TUserRecord> {
  const transaction = (
    await readStoredTransaction(prisma, clientId, transactionId, (where) =>
      prisma.transaction.findUnique({ where, select: { userId: true, data: true } }),
    )
  )?.row;
  if (!transaction) throw notFound("/transactionId", "Transaction not found");
  const userId = transactionUserId(transaction);
  const row = userId
    ? await prisma.user.findUnique({
        where: { clientId_id: { clientId, id: userId } },
        select: USER_RECORD_SELECT,
      })
    : null;
  if (!row) throw notFound("/userId", "User not found");
  return serializeUser(row);
}
