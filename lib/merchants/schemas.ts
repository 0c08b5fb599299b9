import { z } from "zod";
import { PREASSIGNED_RISK_LEVELS } from "@/lib/risk/risk-levels";
import { ZId } from "@/lib/validation/ids";
import { ZEmail, ZNonEmptyString, ZPastTimestamp, ZPhone, ZUserDocument } from "@/lib/users/schemas";

// The Merchant record of interface.md ("Merchant", "Merchant rules") and docs/decisions.md §9.

const plainDecimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "Expected a plain decimal such as 1250.50 (no sign, currency or separators)");

function lowerEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(values));
}

export const MERCHANT_PAYMENT_METHODS = ["cash", "vas", "card", "bank", "crypto", "ewa"] as const;

export const ZMerchantLimits = z.object({
  limitCurrencyCode: z.string().optional(),
  transactionLimit: z.number().min(0).optional(),
  dailyTransactionLimit: z.number().min(0).optional(),
  monthlyTransactionLimit: z.number().min(0).optional(),
  limitId: z.string().optional(),
});

const LIMIT_AMOUNTS = ["transactionLimit", "dailyTransactionLimit", "monthlyTransactionLimit"] as const;

/** The merchant fields without the dependent-pair checks, for callers that need to extend the shape. */
export const ZMerchantFields = z.object({
  id: ZId,
  name: ZNonEmptyString,
  timestamp: ZPastTimestamp,
  status: lowerEnum(["active", "inactive", "blocked"]).optional(),
  riskLevel: lowerEnum(PREASSIGNED_RISK_LEVELS).optional(),
  mcc: z.string().optional(),
  tradingName: z.string().optional(),
  organizationId: z.string().optional(),
  posMode: z.string().optional(),
  businessSegment: z.string().optional(),
  businessType: z.string().optional(),
  averagePurchaseSize: plainDecimal.optional(),
  monthlyVolume: plainDecimal.optional(),
  province: z.string().optional(),
  country: z.string().optional(),
  paymentMethods: z.array(lowerEnum(MERCHANT_PAYMENT_METHODS)).optional(),
  registrationNumber: z.string().optional(),
  accountNumber: z.string().optional(),
  bankName: z.string().optional(),
  fullName: z.string().optional(),
  phone: ZPhone.optional(),
  email: ZEmail.optional(),
  document: ZUserDocument.optional(),
  limits: ZMerchantLimits.optional(),
  cashbackEnabled: z.boolean().optional(),
  cashbackRate: z.number().min(0).max(100).optional(),
  settlementEnabled: z.boolean().optional(),
  settlementType: z.string().optional(),
});

/** Dependent pairs of the merchant rules; reusable on any schema extending ZMerchantFields. */
export function checkMerchantPairs(m: z.infer<typeof ZMerchantFields>, ctx: z.RefinementCtx): void {
  // The missing half of a dependent pair is reported at its own path (docs/decisions.md §9).
  const limits = m.limits;
  if (limits && !limits.limitCurrencyCode) {
    const sent = LIMIT_AMOUNTS.filter((k) => limits[k] !== undefined);
    if (sent.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["limits", "limitCurrencyCode"],
        message: `Required when limits.${sent.join(", limits.")} is sent`,
      });
  }
  if (m.cashbackRate !== undefined && m.cashbackEnabled !== true)
    ctx.addIssue({
      code: "custom",
      path: ["cashbackRate"],
      message: "cashbackRate requires cashbackEnabled to be true",
    });
  if (m.settlementType !== undefined && m.settlementEnabled !== true)
    ctx.addIssue({
      code: "custom",
      path: ["settlementType"],
      message: "settlementType requires settlementEnabled to be true",
    });
}

export const ZMerchant = ZMerchantFields.superRefine(checkMerchantPairs);
export type TMerchant = z.infer<typeof ZMerchant>;
