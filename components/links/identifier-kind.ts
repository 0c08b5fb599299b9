import { formatEnum } from "@/lib/format";

// Identifier kinds (and "counterparty", linked by payments) in words, as the reviewer says them (never the raw enum).
const LABELS: Record<string, string> = {
  phone: "Phone",
  email: "Email",
  ipAddress: "IP address",
  deviceFingerprint: "Device",
  bankAccountNumber: "Bank account",
  cryptoAddress: "Crypto address",
  walletTaxNumberId: "Wallet tax number",
  walletPhone: "Wallet phone",
  cardFingerprint: "Card",
  // not an identifier: payments between them (the network view's filter sends it with the kinds)
  counterparty: "Counterparty",
};

export const NETWORK_KINDS = Object.keys(LABELS);

export function identifierKindLabel(kind: string): string {
  return LABELS[kind] ?? formatEnum(kind);
}

/**
 * Text for the canvas, where no <bdi> can isolate it: direction controls removed (an RLO would reverse
 * everything after it) and long values cut, so a hostile name neither flips nor covers the graph.
 */
export function canvasLabel(text: string, max = 22): string {
  const clean = text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
