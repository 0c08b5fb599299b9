import { z } from "zod";
import { ZId } from "@/lib/validation/ids";
import { ZEpochMs } from "@/lib/validation/timestamps";
import { ZRiskAssessment } from "@/lib/screening/assessment";
import { ZPastTimestamp } from "@/lib/users/schemas";

// Payment instrument request of interface.md ("Payment instrument") and walletVerification of docs/decisions.md §5.

const str = z.string().optional();

export const ZPaymentInstrument = z.object({
  id: ZId,
  userId: ZId,
  provider: str,
  method: z.enum(["bank", "card", "wallet", "crypto", "vas", "ewa", "cash"]).optional(),
  payInMethod: z.boolean().optional(),
  payOutMethod: z.boolean().optional(),
  bank: z
    .object({
      id: str,
      accountNumber: str,
      routingNumber: str,
      currency: str,
      ibanFull: str,
      sortCode: str,
      accountType: str,
      accountHolderName: str,
      bankName: str,
      bankBranch: str,
      bankBranchCode: str,
    })
    .optional(),
  card: z
    .object({
      id: str,
      bin: str,
      binCountry: str,
      currency: str,
      brand: str,
      last4: str,
      isDigitalWallet: z.boolean().optional(),
      fingerprint: str,
      digitalWalletType: str,
      digitalWalletToken: str,
    })
    .optional(),
  wallet: z
    .object({
      tokenBrand: str,
      type: str,
      phone: str,
      country: str,
      phoneProvider: str,
      currency: str,
      instantKey: str,
      taxNumberId: str,
    })
    .optional(),
  // Crypto instrument fields are not fixed by the contract: kept as sent.
  crypto: z.record(z.string(), z.unknown()).optional(),
  vas: z.record(z.string(), z.unknown()).optional(),
  ewa: z.record(z.string(), z.unknown()).optional(),
  cash: z.record(z.string(), z.unknown()).optional(),
});

export const ZPaymentInstrumentRequest = z.object({
  status: z.enum(["linked", "unlinked"]),
  paymentInstrument: ZPaymentInstrument,
  timestamp: ZPastTimestamp.optional(),
  updatedAt: ZEpochMs.optional(),
});
export type TPaymentInstrumentRequest = z.infer<typeof ZPaymentInstrumentRequest>;

const ZCheck = z.enum(["match", "mismatch", "missing"]);
export const ZWalletVerification = z.object({
  status: z.enum(["verified", "mismatch", "unverifiable"]),
  checks: z.object({ taxNumberId: ZCheck, phone: ZCheck }),
});
export type TWalletVerification = z.infer<typeof ZWalletVerification>;

export const ZPaymentInstrumentAssessment = ZRiskAssessment.extend({
  walletVerification: ZWalletVerification.optional(),
});
export type TPaymentInstrumentAssessment = z.infer<typeof ZPaymentInstrumentAssessment>;
