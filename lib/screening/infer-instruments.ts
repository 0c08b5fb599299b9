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
