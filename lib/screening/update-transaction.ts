import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { baseAmountConverter, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import { Prisma } from "@/lib/generated/prisma/client";
import { cachedRules } from "@/lib/screening/hot/config";
import { updateTransactionHot } from "@/lib/screening/hot/update-transaction";
import { notFound } from "@/lib/http/errors";
import { assessTransaction } from "@/lib/screening/assess-transaction";
import { TX_OPTIONS, type TTransactionAssessment } from "@/lib/screening/screen-transaction";
import { updatedStatus, type TTransactionUpdate } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods, indexIdentifiers } from "@/lib/users/index-identifiers";

/**
 * Applies a status/feedback update and partial payment-method changes to a stored transaction,
 * keeping the history. With transactionUpdateMonitoring the updated transaction is screened again.
 * Runs on the raw-SQL path (lib/screening/hot/update-transaction.ts), with the same rows as
 * updateTransactionPrisma.
 */
export async function updateTransaction(args: {
  client: TClientContext;
  body: TTransactionUpdate;
}): Promise<{ status: "Success" } | TTransactionAssessment> {
  return updateTransactionHot(args);
}

/** The Prisma path it replaced, kept as the reference of tests/integration/update-equivalence.test.ts. */
export async function updateTransactionPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TTransactionUpdate;
}): Promise<{ status: "Success" } | TTransactionAssessment> {
  const clientId = client.id;
  const monitoring = client.features.has("transactionUpdateMonitoring");
  const rules = monitoring ? await cachedRules(client, "transaction") : undefined;
  const convert = monitoring ? await baseAmountConverter(client) : undefined;
  return prisma.$transaction(async (tx) => {
    // Row lock: concurrent updates of one transaction apply one after the other.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM transactions WHERE "clientId" = ${clientId} AND id = ${body.transactionId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("/transactionId", "Transaction not found");
    const row = await tx.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: body.transactionId } },
    });

    // The deprecated feedback object fills what the top-level fields leave out.
    const status = updatedStatus(body);
    const type = body.type ?? body.feedback?.type;
    const description = body.description ?? body.feedback?.description;
    const occurredAt = new Date(body.timestamp ?? body.feedback?.createdAt ?? Date.now());

    const data = { ...(row.data as Record<string, unknown>) };
    if (status) data.status = status;
    const change = body.transaction;
    if (change) {
      for (const key of ["accountId", "paymentMethod", "bank", "card", "vas", "cash"] as const) {
        if (change[key] !== undefined) data[key] = change[key];
      }
    }
    const card = data.card as { cardFingerprint?: string } | undefined;
    await tx.transaction.update({
      where: { clientId_id: { clientId, id: row.id } },
      data: {
        status: status ?? row.status,
        isFraud: body.isFraudulent ?? row.isFraud,
        accountId: (data.accountId as string | undefined) ?? null,
        paymentMethod: (data.paymentMethod as string | undefined) ?? null,
        cardFingerprint: card?.cardFingerprint ?? null,
        data: data as object,
        // the body as sent, kept before the first update changes it
        requestData: (row.requestData ?? row.data) as object,
        updatedAt: new Date(),
      },
    });
    await tx.transactionUpdate.create({
      data: {
        clientId,
        transactionId: row.id,
        status: status ?? null,
        reason: body.reason ?? null,
        description: description ?? null,
        type: type ?? null,
        isFraudulent: body.isFraudulent ?? null,
        source: "api",
        changes: (change ?? undefined) as object | undefined,
        occurredAt,
      },
    });
    if (change && row.userId)
      await indexIdentifiers(tx, {
        clientId,
        userId: row.userId,
        identifiers: identifiersFromPaymentMethods(change),
        source: "transaction",
      });

    if (!convert) return { status: "Success" as const };

    // the same conversion as on submission, at the rates known now
    const fx = convert({
      currencyCode: row.currencyCode,
      amount: Number(row.amount),
      timestamp: row.occurredAt.getTime(),
    });
    await tx.transaction.update({
      where: { clientId_id: { clientId, id: row.id } },
      data: { baseAmount: fx.baseAmount === undefined ? null : new Prisma.Decimal(String(fx.baseAmount)) },
    });
    const answer = await assessTransaction(tx, {
      clientId,
      transaction: withBaseAmount({ ...data, id: row.id }, fx),
      fx,
      userId: row.userId,
      merchantId: row.merchantId,
      occurredAt: row.occurredAt.getTime(),
      now: new Date(),
      rules,
    });
    return { ...answer, transactionId: row.id, status: status ?? row.status };
  }, TX_OPTIONS);
}
