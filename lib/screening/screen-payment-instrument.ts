import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma, type Tx } from "@/lib/db";
import type {
  TPaymentInstrumentAssessment,
  TPaymentInstrumentRequest,
  TWalletVerification,
} from "@/lib/payment-instruments/schemas";
import { verifyWallet } from "@/lib/payment-instruments/verify-wallet";
import { assessment, storedEntity } from "@/lib/screening/assessment";
import { cachedRules } from "@/lib/screening/hot/config";
import { screenPaymentInstrumentHot } from "@/lib/screening/hot/screen-payment-instrument";
import { runRules } from "@/lib/screening/run-rules";
import { TX_OPTIONS } from "@/lib/screening/screen-transaction";
import { identifiersFromPaymentMethods, indexIdentifiers } from "@/lib/users/index-identifiers";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/**
 * Links or unlinks a payment instrument. With paymentInstrumentRules it is screened; without, the answer
 * is low / ALLOW / []. walletVerification is added for clients with that feature and wallet instruments.
 * Runs on the raw-SQL path (lib/screening/hot/screen-payment-instrument.ts).
 */
export async function screenPaymentInstrument(args: {
  client: TClientContext;
  body: TPaymentInstrumentRequest;
}): Promise<TPaymentInstrumentAssessment> {
  return screenPaymentInstrumentHot(args);
}

/** The Prisma path it replaced, kept as the reference of tests/integration/pi-event-equivalence.test.ts. */
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

/** GET: the stored answer; rules are not re-evaluated, so triggered is always empty. */
export async function getPaymentInstrumentAssessment(
  db: Tx,
  { clientId, id }: { clientId: string; id: string },
): Promise<TPaymentInstrumentAssessment | null> {
  const row = await db.paymentInstrument.findUnique({ where: { clientId_id: { clientId, id } } });
  if (!row) return null;
  const answer: TPaymentInstrumentAssessment = assessment(
    row.id,
    { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered: [] },
    row.assessedAt,
  );
  if (row.walletVerification) answer.walletVerification = row.walletVerification as TWalletVerification;
  return answer;
}
