import type { TWalletVerification } from "@/lib/payment-instruments/schemas";
import { normalizeIdentifier } from "@/lib/users/index-identifiers";

type TCheck = TWalletVerification["checks"]["phone"];

function check(a: string | undefined, b: string | undefined, normalize: (s: string) => string): TCheck {
  if (!a?.trim() || !b?.trim()) return "missing";
  return normalize(a) === normalize(b) ? "match" : "mismatch";
}

/** Wallet ownership: the wallet's tax id and phone compared with the stored user's (docs/decisions.md §5). */
export function verifyWallet(
  wallet: { taxNumberId?: string; phone?: string },
  user: { taxNumberId?: string; phone?: { phone?: string } } | null,
): TWalletVerification {
  const checks = {
    taxNumberId: check(wallet.taxNumberId, user?.taxNumberId, (s) => s.replace(/[\s./-]/g, "").toUpperCase()),
    phone: check(wallet.phone, user?.phone?.phone, (s) => normalizeIdentifier("phone", s)),
  };
  const values = Object.values(checks);
  const status = values.includes("mismatch")
    ? "mismatch"
    : values.includes("match")
      ? "verified"
      : "unverifiable";
  return { status, checks };
}
