import { z } from "zod";
import { ZId, ZIdRef } from "@/lib/validation/ids";
import { ZEpochMs } from "@/lib/validation/timestamps";
import { ZMerchant } from "@/lib/merchants/schemas";
import {
  paymentMethodSchemas,
  requireMethodObject,
  ZCurrencyCode,
  ZPaymentMethod,
} from "@/lib/transactions/payment-methods";
import { FUTURE_SKEW_MS, ZAddress, ZUser, ZUserDevice } from "@/lib/users/schemas";

// Transaction (request) and Transaction update request of interface.md.

export const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export const TRANSACTION_STATUSES = [
  "PENDING",
  "APPROVED",
  "DECLINED",
  "BLOCKED",
  "FAILED",
  "CANCELED",
  "ABANDONED",
  "CHARGEBACK",
] as const;
export const ZTransactionStatus = z.enum(TRANSACTION_STATUSES);

export { ZCurrencyCode } from "@/lib/transactions/payment-methods";

/** Not in the future and not older than 365 days (docs/decisions.md §9). */
export const ZRecentTimestamp = z.number().superRefine((value, ctx) => {
  const now = Date.now();
  if (value > now + FUTURE_SKEW_MS)
    ctx.addIssue({ code: "custom", message: "Timestamp must not be in the future" });
  else if (value < now - YEAR_MS)
    ctx.addIssue({ code: "custom", message: "Timestamp must not be older than 365 days" });
});

export const { ZBank, ZCard, ZCrypto, ZWallet, ZEwa, ZVas, ZCash } = paymentMethodSchemas(ZAddress);

const methodObjects = {
  bank: ZBank.optional(),
  card: ZCard.optional(),
  crypto: ZCrypto.optional(),
  wallet: ZWallet.optional(),
  cash: ZCash.optional(),
  ewa: ZEwa.optional(),
  vas: ZVas.optional(),
};

export const ZRecipient = ZUser.partial().extend({
  id: ZIdRef.optional(),
  amount: z.number().min(0).optional(),
  currencyCode: ZCurrencyCode.optional(),
  paymentMethod: ZPaymentMethod.optional(),
  ...methodObjects,
});

function exclusive(
  value: Record<string, unknown>,
  ctx: z.RefinementCtx,
  a: string,
  b: string,
  opts: { required?: boolean } = {},
): void {
  const hasA = value[a] !== undefined && value[a] !== null;
  const hasB = value[b] !== undefined && value[b] !== null;
  if (hasA && hasB)
    ctx.addIssue({ code: "custom", path: [b], message: `${a} and ${b} are mutually exclusive` });
  else if (opts.required && !hasA && !hasB)
    ctx.addIssue({ code: "custom", path: [a], message: `Exactly one of ${a} or ${b} is required` });
}

export const ZTransactionFields = z.object({
  id: ZId,
  userId: ZId.optional(),
  user: ZUser.optional(),
  accountId: ZIdRef.optional(),
  status: ZTransactionStatus,
  currencyCode: ZCurrencyCode,
  amount: z.number().min(0),
  timestamp: ZRecentTimestamp,
  userDeviceId: ZIdRef.nullable().optional(),
  userDevice: ZUserDevice.optional(),
  direction: z.enum(["payin", "payout"]).optional(),
  actionType: z.string().optional(),
  provider: z.string().optional(),
  paymentMethod: ZPaymentMethod.optional(),
  ...methodObjects,
  source: z.string().optional(),
  externalId: ZIdRef.optional(),
  flow: z.string().optional(),
  merchantId: ZId.optional(),
  merchant: ZMerchant.optional(),
  terminalId: ZIdRef.optional(),
  billingAddress: ZAddress.optional(),
  recipient: ZRecipient.optional(),
  recipients: z.array(ZRecipient).optional(),
});

export const ZTransaction = ZTransactionFields.superRefine((tx, ctx) => {
  exclusive(tx, ctx, "userId", "user", { required: true });
  exclusive(tx, ctx, "userDeviceId", "userDevice");
  exclusive(tx, ctx, "merchantId", "merchant");
  exclusive(tx, ctx, "recipient", "recipients");
  requireMethodObject(tx, ctx);
  if (tx.recipient) requireMethodObject(tx.recipient, ctx, ["recipient"]);
  tx.recipients?.forEach((r, i) => requireMethodObject(r, ctx, ["recipients", i]));
});
export type TTransaction = z.infer<typeof ZTransaction>;

// ---------------------------------------------------------------- update

const UPDATE_METHODS = ["bank", "card", "vas", "cash"] as const;

function nonEmpty<S extends z.ZodObject>(schema: S) {
  return schema.refine((o) => Object.values(o).some((v) => v !== undefined), "Must not be empty");
}

export const ZTransactionUpdate = z.object({
  transactionId: ZId,
  status: ZTransactionStatus.optional(),
  timestamp: ZEpochMs.optional(),
  reason: z.string().optional(),
  description: z.string().optional(),
  type: z.string().optional(),
  isFraudulent: z.boolean().optional(),
  transaction: z
    .object({
      accountId: ZIdRef.optional(),
      paymentMethod: z.enum(UPDATE_METHODS).optional(),
      bank: nonEmpty(ZBank).optional(),
      card: nonEmpty(ZCard).optional(),
      vas: nonEmpty(ZVas).optional(),
      cash: nonEmpty(ZCash).optional(),
    })
    .superRefine((t, ctx) => requireMethodObject(t, ctx))
    .optional(),
  feedback: z
    .object({
      id: ZId,
      status: z.string().optional(),
      type: z.string().optional(),
      description: z.string().optional(),
      createdAt: ZEpochMs.optional(),
    })
    .optional(),
});
export type TTransactionUpdate = z.infer<typeof ZTransactionUpdate>;

/**
 * The status a transaction update sets: `status`, else the deprecated feedback object's status when it
 * is a known one (upper-cased); undefined: the stored status is kept.
 */
export function updatedStatus(body: TTransactionUpdate): string | undefined {
  const feedbackStatus = body.feedback?.status?.toUpperCase();
  return (
    body.status ??
    (feedbackStatus && (TRANSACTION_STATUSES as readonly string[]).includes(feedbackStatus)
      ? feedbackStatus
      : undefined)
  );
}
