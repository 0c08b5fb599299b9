import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { ensureUser } from "@/lib/users/ensure-user";
import type { TStoredUserStatus, TTransactionPartiesStatus } from "@/lib/users/schemas";
import { setUserStatus } from "@/lib/users/set-user-status";
import { transactionRecipientIds, transactionUserId } from "@/lib/users/transaction-parties";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";

/**
 * PUT /v1/users/transactions/{transactionId}/status: sets the status of the transaction's sender
 * (`user`), its recipients (`recipient.id` / `recipients[].id`) or both. Without `status` the parties
 * are blocked, which is what this endpoint is for. A party known only by id gets a user record,
 * so the status holds when the user is sent later.
 */
export async function setTransactionPartiesStatus({
  clientId,
  transactionId,
  input,
}: {
  clientId: string;
  transactionId: string;
  input: TTransactionPartiesStatus;
}): Promise<{ transactionId: string; users: { id: string; status: TStoredUserStatus }[] }> {
  const transaction = (
    await readStoredTransaction(prisma, clientId, transactionId, (where) =>
      prisma.transaction.findUnique({ where, select: { userId: true, data: true, occurredAt: true } }),
    )
  )?.row;
  if (!transaction) throw notFound("/transactionId", "Transaction not found");

  const parties = input.parties ?? "user";
  const ids = new Set<string>();
  const sender = transactionUserId(transaction);
  if (sender && parties !== "recipient") ids.add(sender);
  if (parties !== "user") for (const id of transactionRecipientIds(transaction)) ids.add(id);

  const status = input.status ?? "blocked";
  const users = await prisma.$transaction(
    async (tx) => {
      const out: { id: string; status: TStoredUserStatus }[] = [];
      // Sorted, so two requests locking overlapping users cannot deadlock.
      for (const userId of [...ids].sort()) {
        await ensureUser(tx, { clientId, userId, createdAt: transaction.occurredAt, source: "transaction" });
        const result = await setUserStatus(tx, {
          clientId,
          userId,
          status,
          source: "transaction",
          comment: input.comment,
          reviewer: input.reviewer,
          details: { transactionId, parties },
        });
        if (result) out.push({ id: result.id, status: result.status });
      }
      return out;
    },
    { timeout: 60_000 },
  );
  return { transactionId, users };
}
