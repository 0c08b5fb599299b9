import { z } from "zod";

// Payment method objects of the interface. No field is required in any of them.
// Addresses inside them follow the shared address rule, so the address schema is passed in.

export const PAYMENT_METHODS = ["crypto", "wallet", "bank", "card", "cash", "vas", "ewa"] as const;
export const ZPaymentMethod = z.enum(PAYMENT_METHODS);
export type TPaymentMethod = z.infer<typeof ZPaymentMethod>;

export const ZCurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "Expected ISO 4217 currency code (three uppercase letters)");
const ZBalance = z.object({ amount: z.number().optional(), currency: ZCurrencyCode.optional() });

export function paymentMethodSchemas(ZAddress: z.ZodType) {
  const ZBank = z.object({
    accountNumber: z.string().optional(),
    routingNumber: z.string().optional(),
    currency: z.string().optional(),
    ibanFull: z.string().optional(),
    sortCode: z.string().optional(),
    accountType: z.string().optional(),
    accountHolderName: z.string().optional(),
    bankName: z.string().optional(),
    bankBranch: z.string().optional(),
    bankBranchCode: z.string().optional(),
    balance: ZBalance.optional(),
    billingAddress: ZAddress.optional(),
    isVirtualAccount: z.boolean().optional(),
    type: z.string().optional(),
    description: z.string().optional(),
    paymentReference: z.string().optional(),
  });
  const ZCard = z.object({
    bin: z
      .string()
      .regex(/^\d{6,8}$/, "Expected the first 6 to 8 digits of the card number")
      .optional(),
    binCountry: z.string().optional(),
    brand: z.string().optional(),
    last4: z
      .string()
      .regex(/^\d{4}$/, "Expected 4 digits")
      .optional(),
    number: z
      .string()
      .regex(/^\d{12,19}$/, "Expected 12 to 19 digits")
      .optional(),
    expiryMonth: z
      .string()
      .regex(/^(0[1-9]|1[0-2])$/, "Expected two digits from 01 to 12")
      .optional(),
    expiryYear: z
      .string()
      .regex(/^\d{2,4}$/, "Expected 2 to 4 digits")
      .optional(),
    type: z.enum(["CREDIT", "DEBIT"]).optional(),
    mccCode: z.string().optional(),
    isDigitalWallet: z.boolean().optional(),
    cardFingerprint: z.string().optional(),
    digitalWalletType: z.string().optional(),
    digitalWalletToken: z.string().optional(),
    billingAddress: ZAddress.optional(),
  });
  const ZCrypto = z.object({
    assetSymbol: z.union([z.string(), z.array(z.string())]).optional(),
    network: z.string().optional(),
    address: z.string().optional(),
    currency: z.string().optional(),
    transactionHash: z.string().optional(),
  });
  const ZWallet = z.object({
    id: z.string().optional(),
    tokenBrand: z.string().optional(),
    phone: z.string().optional(),
    phoneCountry: z.string().optional(),
    country: z.string().optional(),
    phoneProvider: z.string().optional(),
    currency: z.string().optional(),
    type: z.string().optional(),
    instantKey: z.string().optional(),
    taxNumberId: z.string().optional(),
    provider: z.string().optional(),
    accountId: z.string().optional(),
    balance: ZBalance.optional(),
  });
  const ZEwa = z.object({ id: z.string().optional(), employerId: z.string().optional() });
  const ZVas = z.object({
    id: z.string().optional(),
    voucherCode: z.string().optional(),
    voucherReference: z.string().optional(),
    voucherType: z.enum(["gift", "discount", "promotional", "prepaid", "service"]).optional(),
    issuer: z.string().optional(),
    recipient: z.object({ email: z.string().optional(), phone: z.string().optional() }).optional(),
    faceValue: z.number().optional(),
    currentBalance: z.number().optional(),
    currency: z.string().optional(),
    expiryDate: z.number().optional(),
    activationDate: z.number().optional(),
    status: z.enum(["active", "redeemed", "expired", "cancelled", "pending"]).optional(),
  });
  const ZCash = z.object({
    id: z.string().optional(),
    agentId: z.string().optional(),
    type: z.string().optional(),
  });
  return { ZBank, ZCard, ZCrypto, ZWallet, ZEwa, ZVas, ZCash };
}

/** Issue for "paymentMethod set but its object missing", at the path of the missing object. */
export function requireMethodObject(
  value: Record<string, unknown>,
  ctx: z.RefinementCtx,
  prefix: (string | number)[] = [],
): void {
  const method = value.paymentMethod;
  if (typeof method === "string" && value[method] === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [...prefix, method],
      message: `Required when paymentMethod is ${method}`,
    });
  }
}
