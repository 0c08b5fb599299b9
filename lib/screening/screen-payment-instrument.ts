import type { TClientContext } from "@/lib/auth/api-keys";
import type { Tx } from "@/lib/db";
import type {
  TPaymentInstrumentAssessment,
  TPaymentInstrumentRequest,
  TWalletVerification,
} from "@/lib/payment-instruments/schemas";
import { assessment } from "@/lib/screening/assessment";
import { screenPaymentInstrumentHot } from "@/lib/screening/hot/screen-payment-instrument";

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
