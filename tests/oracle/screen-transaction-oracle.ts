// The Prisma implementation of POST /v1/transaction that the raw-SQL path replaced, kept only as the
// reference of the equivalence tests (tests/integration/screening-equivalence.test.ts): same answers,
// decisions and stored rows. Production code never imports tests/oracle.
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, TX_OPTIONS, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { transactionBaseAmount, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import type { TFxConversion } from "@/lib/fx/rates";
import { upsertMerchant } from "@/tests/oracle/upsert-merchant";
import { bodyHash, type TRiskAssessment } from "@/lib/screening/assessment";
import { inferInstruments } from "@/tests/oracle/infer-instruments";
import { storedTransactionAssessment, type TTransactionAssessment } from "@/lib/screening/screen-transaction";
import type { TTransaction } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import { indexIdentifiers } from "@/tests/oracle/index-identifiers";
import { upsertDevice } from "@/tests/oracle/upsert-device";
import { upsertUser } from "@/tests/oracle/upsert-user";
import { assessTransaction } from "@/tests/oracle/assess-transaction";

function response(row: { id: string; status: string }, result: TRiskAssessment): TTransactionAssessment {
  return { ...result, transactionId: row.id, status: row.status };
}

/**
 * Screens a transaction: stores it (with its inline user, merchant and device), evaluates the client's
 * transaction rules, stores the decision, opens alerts and emits webhooks, all in one database transaction.
 * An identical resubmission returns the stored assessment; a changed one is screened again and replaces it.
 */
export async function screenTransactionPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TTransaction;
}): Promise<TTransactionAssessment> {
  const clientId = client.id;
  // Hash of the validated body: fields the contract ignores do not make a request "different".
  const hash = bodyHash(body);
  for (let attempt = 0; ; attempt++) {
    const existing = await prisma.transaction.findUnique({
      where: { clientId_id: { clientId, id: body.id } },
      select: { bodyHash: true },
    });
    if (existing?.bodyHash === hash) {
      const stored = await storedTransactionAssessment(prisma, { clientId, id: body.id });
      if (stored) return stored;
    }
    // also refreshes the client's cached configuration, whose lists runRules reads
    const fx = await transactionBaseAmount(client, body);
    try {
      return await prisma.$transaction(
        (tx) => screenInTransaction(tx, { clientId, body, fx, hash, replace: !!existing }),
        TX_OPTIONS,
      );
    } catch (err) {
      // Two first submissions of the same id raced; the loser re-reads the winner's answer.
      if (attempt < 2 && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
        continue;
      throw err;
    }
  }
}

async function screenInTransaction(
  tx: Tx,
  {
    clientId,
    body,
    fx,
    hash,
    replace,
  }: { clientId: string; body: TTransaction; fx: TFxConversion; hash: string; replace: boolean },
): Promise<TTransactionAssessment> {
  const now = new Date();
  const userId = body.userId ?? body.user!.id;
  if (body.user) await upsertUser(tx, { clientId, user: body.user, source: "transaction" });
  const merchantId = body.merchantId ?? body.merchant?.id;
  if (body.merchant) await upsertMerchant(tx, { clientId, merchant: body.merchant });
  const userDeviceId = body.userDeviceId ?? body.userDevice?.id ?? null;
  if (body.userDevice) await upsertDevice(tx, { clientId, userId, device: body.userDevice });

  const columns = {
    userId,
    merchantId: merchantId ?? null,
    accountId: body.accountId ?? null,
    userDeviceId,
    cardFingerprint: body.card?.cardFingerprint ?? null,
    status: body.status,
    direction: body.direction ?? null,
    paymentMethod: body.paymentMethod ?? null,
    currencyCode: body.currencyCode,
    amount: new Prisma.Decimal(body.amount),
    baseAmount: fx.baseAmount === undefined ? null : new Prisma.Decimal(String(fx.baseAmount)),
    occurredAt: new Date(body.timestamp),
    data: body as object,
    bodyHash: hash,
    riskLevel: "n/a",
    recommendedAction: "ALLOW",
    assessedAt: now,
    updatedAt: now,
  };
  if (replace) {
    await tx.transaction.update({
      where: { clientId_id: { clientId, id: body.id } },
      data: { ...columns, decisionId: null, requestData: Prisma.DbNull },
    });
  } else {
    await tx.transaction.create({ data: { clientId, id: body.id, ...columns } });
  }

  await tx.transactionUpdate.create({
    data: {
      clientId,
      transactionId: body.id,
      status: body.status,
      type: replace ? "resubmitted" : "submitted",
      source: "api",
      occurredAt: new Date(body.timestamp),
    },
  });
  await indexIdentifiers(tx, {
    clientId,
    userId,
    identifiers: identifiersFromPaymentMethods(body),
    source: "transaction",
  });
  // Recipients are users of the client too: their payment methods are theirs for attribute blocking.
  for (const recipient of body.recipients ?? (body.recipient ? [body.recipient] : [])) {
    if (recipient.id)
      await indexIdentifiers(tx, {
        clientId,
        userId: recipient.id,
        identifiers: identifiersFromPaymentMethods(recipient),
        source: "transaction-recipient",
      });
  }
  await inferInstruments(tx, { clientId, userId, transaction: body, at: now });
  const answer = await assessTransaction(tx, {
    clientId,
    transaction: withBaseAmount(body, fx),
    fx,
    userId,
    merchantId: merchantId ?? null,
    occurredAt: body.timestamp,
    now,
  });
  return response({ id: body.id, status: body.status }, answer);
}
