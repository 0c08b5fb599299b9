import type { Tx } from "@/lib/db";
import type { TTransaction } from "@/lib/transactions/schemas";

type TCandidate = { id: string; method: string; data: Record<string, unknown> };

/** The instruments a transaction reveals, identified by their stable identifier. */
export function instrumentCandidates(
  tx: Pick<TTransaction, "card" | "bank" | "crypto" | "wallet">,
): TCandidate[] {
  const out: TCandidate[] = [];
  const card = tx.card;
  const cardKey =
    card?.cardFingerprint ?? (card?.bin && card.last4 ? `${card.bin}…${card.last4}` : undefined);
  if (card && cardKey)
    out.push({ id: `card:${cardKey}`, method: "card", data: { ...card, fingerprint: card.cardFingerprint } });
  const bankKey = tx.bank?.ibanFull ?? tx.bank?.accountNumber;
  if (tx.bank && bankKey) out.push({ id: `bank:${bankKey}`, method: "bank", data: tx.bank });
  if (tx.crypto?.address) out.push({ id: `crypto:${tx.crypto.address}`, method: "crypto", data: tx.crypto });
  const walletKey = tx.wallet?.id ?? tx.wallet?.phone ?? tx.wallet?.instantKey;
  if (tx.wallet && walletKey) out.push({ id: `wallet:${walletKey}`, method: "wallet", data: tx.wallet });
  return out;
}

/**
 * Records the payment instruments seen on a transaction as inferred and linked to its user,
 * unless the client already told us about them (explicit instruments are never overwritten).
 */
export async function inferInstruments(
  tx: Tx,
  {
    clientId,
    userId,
    transaction,
    at,
  }: { clientId: string; userId: string; transaction: TTransaction; at: Date },
): Promise<void> {
  const candidates = instrumentCandidates(transaction);
  if (candidates.length === 0) return;
  await tx.paymentInstrument.createMany({
    skipDuplicates: true,
    data: candidates.map((c) => ({
      clientId,
      id: c.id,
      userId,
      status: "linked",
      method: c.method,
      data: { id: c.id, userId, method: c.method, [c.method]: c.data } as object,
      inferred: true,
      riskLevel: "n/a",
      recommendedAction: "ALLOW",
      assessedAt: at,
      occurredAt: new Date(transaction.timestamp),
    })),
  });
}
