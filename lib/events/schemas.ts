import { z } from "zod";
import { ZId } from "@/lib/validation/ids";
import { ZMerchant } from "@/lib/merchants/schemas";
import { YEAR_MS } from "@/lib/transactions/schemas";
import { FUTURE_SKEW_MS, ZNonEmptyString, ZUser } from "@/lib/users/schemas";

// Event (inbound) of interface.md.

const ZEventTimestamp = z
  .number()
  .int()
  .superRefine((value, ctx) => {
    const now = Date.now();
    if (value > now + FUTURE_SKEW_MS)
      ctx.addIssue({ code: "custom", message: "Timestamp must not be in the future" });
    else if (value < now - YEAR_MS)
      ctx.addIssue({ code: "custom", message: "Timestamp must not be older than 365 days" });
  });

export const ZEventFields = z.object({
  id: ZId,
  type: ZNonEmptyString.transform((s) => s.toLowerCase()),
  merchantId: ZId.optional(),
  merchant: ZMerchant.optional(),
  userId: ZId.optional(),
  user: ZUser.optional(),
  timestamp: ZEventTimestamp.optional(),
  reference: ZNonEmptyString.optional(),
  method: ZNonEmptyString.transform((s) => s.toLowerCase()).optional(),
  source: ZNonEmptyString.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  paymentInstrumentId: ZId.optional(),
  groupingId: ZId.optional(),
});

export const ZEvent = ZEventFields.superRefine((event, ctx) => {
  if (!event.merchantId && !event.merchant && !event.userId && !event.user) {
    // The contract's wording for "no valid subject shape".
    ctx.addIssue({ code: "custom", path: [], message: "Expected union value" });
    ctx.addIssue({
      code: "custom",
      path: ["userId"],
      message: "At least one subject is required among merchantId, merchant, userId, user",
    });
  }
  if (event.merchantId && event.merchant)
    ctx.addIssue({
      code: "custom",
      path: ["merchant"],
      message: "merchantId and merchant are mutually exclusive",
    });
  if (event.userId && event.user)
    ctx.addIssue({ code: "custom", path: ["user"], message: "userId and user are mutually exclusive" });
});
export type TEvent = z.infer<typeof ZEvent>;

export const ZEventAccepted = z.object({ id: z.string(), status: z.literal("success") });
