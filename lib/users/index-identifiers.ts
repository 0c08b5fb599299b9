import { ATTRIBUTES } from "@/lib/users/schemas";

// The identifier index behind PUT /v1/users/attributes/status (docs/decisions.md §5): every write that
// links a user to a phone, email, device or payment method adds a row, so blocking by attribute
// is one indexed lookup on (clientId, kind, value).

/** The attributes of PUT /v1/users/attributes/status are exactly the identifier kinds. */
export const IDENTIFIER_KINDS = ATTRIBUTES;
export type TIdentifierKind = (typeof IDENTIFIER_KINDS)[number];
export type TIdentifier = { kind: TIdentifierKind; value: string };

/**
 * The stored form of a value, applied both when indexing and when looking up: emails are
 * case-insensitive, phone numbers and account numbers are often written with spaces or dashes.
 */
export function normalizeIdentifier(kind: TIdentifierKind, value: string): string {
  const v = value.trim();
  switch (kind) {
    case "email":
      return v.toLowerCase();
    case "phone":
    case "walletPhone":
      return v.replace(/[\s().-]/g, "");
    case "bankAccountNumber":
      return v.replace(/[\s-]/g, "").toUpperCase();
    default:
      return v;
  }
}

type TLoose = Record<string, unknown> | undefined;

function obj(value: unknown): TLoose {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * The identifiers carried by the payment-method objects of a transaction, a recipient or a
 * payment instrument (`{ bank, card, crypto, wallet, ... }`). Card fingerprints are
 * `card.cardFingerprint` on transactions and `card.fingerprint` on instruments; both are read.
 */
export function identifiersFromPaymentMethods(source: unknown): TIdentifier[] {
  const root = obj(source);
  if (!root) return [];
  const out: TIdentifier[] = [];
  const add = (kind: TIdentifierKind, value: unknown) => {
    const s = str(value);
    if (s) out.push({ kind, value: s });
  };
  const bank = obj(root.bank);
  add("bankAccountNumber", bank?.accountNumber);
  add("bankAccountNumber", bank?.ibanFull);
  const card = obj(root.card);
  add("cardFingerprint", card?.cardFingerprint);
  add("cardFingerprint", card?.fingerprint);
  add("cryptoAddress", obj(root.crypto)?.address);
  const wallet = obj(root.wallet);
  add("walletTaxNumberId", wallet?.taxNumberId);
  add("walletPhone", wallet?.phone);
  return out;
}

/** Phone and email of a user body (`phone.phone`, `email.email`). */
export function identifiersOfUser(user: {
  phone?: { phone?: string };
  email?: { email?: string };
}): TIdentifier[] {
  const out: TIdentifier[] = [];
  const phone = str(user.phone?.phone);
  const email = str(user.email?.email);
  if (phone) out.push({ kind: "phone", value: phone });
  if (email) out.push({ kind: "email", value: email });
  return out;
}
