// The Prisma implementations of POST /v1/event, PUT /v1/paymentInstrument and /v1/transaction/update
// that the raw-SQL path replaced, kept only as the reference of the equivalence tests (pi-event-equivalence,
// update-equivalence): same answers, decisions and stored rows. Production code never imports tests/oracle.
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, TX_OPTIONS } from "@/lib/db";
import type { TEvent } from "@/lib/events/schemas";
import { baseAmountConverter, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/http/errors";
import { upsertMerchant } from "@/tests/oracle/upsert-merchant";
import type {
  TPaymentInstrumentAssessment,
  TPaymentInstrumentRequest,
  TWalletVerification,
} from "@/lib/payment-instruments/schemas";
import { verifyWallet } from "@/lib/payment-instruments/verify-wallet";
import { assessment, storedEntity, type TRiskAssessment } from "@/lib/screening/assessment";
import { ruleVariables } from "@/tests/oracle/run-rules";
import { cachedRules } from "@/tests/oracle/run-rules";
import { runRules } from "@/tests/oracle/run-rules";
import type { TTransactionAssessment } from "@/lib/screening/screen-transaction";
import { updatedStatus, type TTransactionUpdate } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import { indexIdentifiers } from "@/tests/oracle/index-identifiers";
import { upsertUser } from "@/tests/oracle/upsert-user";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";
import { assessTransaction } from "@/tests/oracle/assess-transaction";

export async function screenEventPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TEvent;
}): Promise<TRiskAssessment | { id: string; status: "success" }> {
  const clientId = client.id;
  const rules = client.features.has("eventRules") ? await cachedRules(client, "event") : undefined;
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    if (body.user) await upsertUser(tx, { clientId, user: body.user, source: "event" });
    if (body.merchant) await upsertMerchant(tx, { clientId, merchant: body.merchant });
    const userId = body.userId ?? body.user?.id ?? null;
    const merchantId = body.merchantId ?? body.merchant?.id ?? null;
    const occurredAt = new Date(body.timestamp ?? now.getTime());
    const record = { ...body, timestamp: occurredAt.getTime() };
    const columns = {
      type: body.type,
      method: body.method ?? null,
      userId,
      merchantId,
      occurredAt,
      data: record as object,
    };
    await tx.event.upsert({
      where: { clientId_id: { clientId, id: body.id } },
      create: { clientId, id: body.id, ...columns },
      update: { ...columns, riskLevel: null, recommendedAction: null, assessedAt: null, decisionId: null },
    });
    if (!client.features.has("eventRules")) return { id: body.id, status: "success" as const };

    const variables = await ruleVariables(tx, { clientId, userId, merchantId, subject: { event: record } });
    const result = await runRules(tx, {
      clientId,
      rules,
      subject: "event",
      subjectId: body.id,
      timestamp: occurredAt.getTime(),
      variables,
    });
    const answer = assessment(body.id, result, now);
    await tx.event.update({
      where: { clientId_id: { clientId, id: body.id } },
      data: {
        riskLevel: answer.riskLevel,
        recommendedAction: answer.recommendedAction,
        assessedAt: now,
        decisionId: result.decisionId,
      },
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: "event.screened",
      payload: webhookPayload["event.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}

export async function screenPaymentInstrumentPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TPaymentInstrumentRequest;
}): Promise<TPaymentInstrumentAssessment> {
  const clientId = client.id;
  const instrument = body.paymentInstrument;
  const rules = client.features.has("paymentInstrumentRules")
    ? await cachedRules(client, "paymentInstrument")
    : undefined;
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const user = await tx.user.findUnique({ where: { clientId_id: { clientId, id: instrument.userId } } });
    const method =
      instrument.method ??
      (["bank", "card", "wallet", "crypto", "vas", "ewa", "cash"] as const).find((m) => instrument[m]);

    let riskLevel = "low";
    let recommendedAction = "ALLOW";
    let triggered: unknown[] = [];
    let decisionId: string | null = null;
    if (client.features.has("paymentInstrumentRules")) {
      const variables: Record<string, unknown> = {
        paymentInstrument: { ...instrument, status: body.status },
      };
      const storedUser = storedEntity(user);
      if (storedUser) variables.user = storedUser;
      const result = await runRules(tx, {
        clientId,
        rules,
        subject: "paymentInstrument",
        subjectId: instrument.id,
        timestamp: body.timestamp ?? now.getTime(),
        variables,
      });
      ({ riskLevel, recommendedAction, triggered, decisionId } = result);
    }
    const answer: TPaymentInstrumentAssessment = assessment(
      instrument.id,
      { riskLevel, recommendedAction, triggered },
      now,
    );
    let walletVerification: TWalletVerification | undefined;
    if (client.features.has("walletVerification") && method === "wallet") {
      walletVerification = verifyWallet(instrument.wallet ?? {}, (user?.data ?? null) as never);
      answer.walletVerification = walletVerification;
    }

    const columns = {
      userId: instrument.userId,
      status: body.status,
      method: method ?? null,
      data: instrument as object,
      inferred: false,
      riskLevel: answer.riskLevel,
      recommendedAction: answer.recommendedAction,
      walletVerification: walletVerification ?? undefined,
      assessedAt: now,
      decisionId,
      occurredAt: body.timestamp ? new Date(body.timestamp) : null,
      updatedAt: new Date(body.updatedAt ?? now.getTime()),
    };
    await tx.paymentInstrument.upsert({
      where: { clientId_id: { clientId, id: instrument.id } },
      create: { clientId, id: instrument.id, ...columns },
      update: columns,
    });
    await indexIdentifiers(tx, {
      clientId,
      userId: instrument.userId,
      identifiers: identifiersFromPaymentMethods(instrument),
      source: "paymentInstrument",
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: "payment_instrument.screened",
      payload: webhookPayload["payment_instrument.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}

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
