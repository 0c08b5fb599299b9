import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { transactionBaseAmount, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import type { TFxConversion } from "@/lib/fx/rates";
import { upsertMerchant } from "@/lib/merchants/upsert-merchant";
import { assessTransaction } from "@/lib/screening/assess-transaction";
import { screenTransactionHot } from "@/lib/screening/hot/screen-transaction";
import { assessment, bodyHash, type TRiskAssessment } from "@/lib/screening/assessment";
import { inferInstruments } from "@/lib/screening/infer-instruments";
import type { TTransaction } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods, indexIdentifiers } from "@/lib/users/index-identifiers";
import { upsertDevice } from "@/lib/users/upsert-device";
import { upsertUser } from "@/lib/users/upsert-user";

export type TTransactionAssessment = TRiskAssessment & { transactionId: string; status: string };

export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

function response(row: { id: string; status: string }, result: TRiskAssessment): TTransactionAssessment {
  return { ...result, transactionId: row.id, status: row.status };
}

/** The stored assessment of a transaction, as first answered (GET and idempotent resubmission). */
export async function storedTransactionAssessment(
  db: Tx,
  { clientId, id }: { clientId: string; id: string },
): Promise<TTransactionAssessment | null> {
  const row = await db.transaction.findUnique({ where: { clientId_id: { clientId, id } } });
  if (!row) return null;
  const decision = row.decisionId
    ? await db.decision.findUnique({ where: { id: row.decisionId }, select: { response: true } })
    : null;
  const triggered = ((decision?.response as { triggered?: unknown[] } | null)?.triggered ?? []) as never[];
  return response(
    row,
    assessment(
      row.id,
      { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered },
      row.assessedAt,
    ),
  );
}

/**
 * Screens a transaction (POST /v1/transaction): the raw-SQL path of lib/screening/hot, a few
 * statements in one database transaction. Same contract and stored rows as screenTransactionPrisma.
 */
export async function screenTransaction(args: {
  client: TClientContext;
  body: TTransaction;
}): Promise<TTransactionAssessment> {
  return screenTransactionHot(args);
}

/**
 * The Prisma path it replaced, kept as the reference of the equivalence test
 * (tests/integration/screening-equivalence.test.ts). Screens a transaction: stores it (with its inline user, merchant and device), evaluates the client's
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
