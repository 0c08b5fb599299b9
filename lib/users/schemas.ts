import { z } from "zod";
import { ZId, ZIdRef } from "@/lib/validation/ids";
import { ZEpochMs } from "@/lib/validation/timestamps";

// Shared shapes of users, addresses, documents and devices (interface.md "User", "Address",
// docs/decisions.md §5 "UserDevice"). Unknown fields are stripped (docs/decisions.md §4).

/**
 * Timestamps may not be in the future. A client clock a few seconds ahead of ours is not an error:
 * up to FUTURE_SKEW_MS is tolerated, anything later is a 400.
 */
export const FUTURE_SKEW_MS = 5_000;

/** A number of epoch milliseconds that is not in the future. */
export const ZPastTimestamp = ZEpochMs.superRefine((value, ctx) => {
  if (value > Date.now() + FUTURE_SKEW_MS)
    ctx.addIssue({ code: "custom", message: "Timestamp must not be in the future" });
});

export const ZNonEmptyString = z.string().min(1);

/** Upper-cased before matching, so "active", "Active" and "ACTIVE" are the same value. */
function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  casing: "upper" | "lower",
) {
  return z
    .string()
    .transform((s) => (casing === "upper" ? s.trim().toUpperCase() : s.trim().toLowerCase()))
    .pipe(z.enum(values));
}

export const USER_STATUSES = ["ACTIVE", "INACTIVE", "BLOCKED", "PENDING", "APPROVED", "DECLINED"] as const;
/** UserStatus as accepted on user create/update and attribute update (case-insensitive). */
export const ZUserStatus = caseInsensitiveEnum(USER_STATUSES, "upper");
export type TUserStatus = z.infer<typeof ZUserStatus>;

/** What is stored and returned: active, inactive or blocked. */
export const STORED_USER_STATUSES = ["active", "inactive", "blocked"] as const;
export type TStoredUserStatus = (typeof STORED_USER_STATUSES)[number];
export const ZStoredUserStatus = caseInsensitiveEnum(STORED_USER_STATUSES, "lower");

/** PENDING and APPROVED are stored as active, DECLINED as inactive (interface "User status"). */
export function toStoredStatus(status: TUserStatus): TStoredUserStatus {
  switch (status) {
    case "BLOCKED":
      return "blocked";
    case "INACTIVE":
    case "DECLINED":
      return "inactive";
    default:
      return "active";
  }
}

export const ZAddress = z.object({
  postalCode: z.string(),
  country: z.string().regex(/^[A-Z]{2}$/, "Expected ISO 3166-1 alpha-2 country code in uppercase"),
  street: z.string().optional(),
  city: z.string().optional(),
  regionCode: z.string().optional(),
  isVerified: z.boolean().optional(),
});
export type TAddress = z.infer<typeof ZAddress>;

export const ZUserDocument = z.object({
  country: z.string().optional(),
  number: z.string().optional(),
  type: z.string().optional(),
  source: z.string().optional(),
  fullName: z.string().optional(),
});
export type TUserDocument = z.infer<typeof ZUserDocument>;

export const ZPhone = z.object({
  phone: z.string().optional(),
  country: z.string().optional(),
  isVerified: z.boolean().optional(),
});

export const ZEmail = z.object({
  email: z.string().optional(),
  isVerified: z.boolean().optional(),
});

export const ZUserDevice = z.object({
  id: ZId,
  fingerprint: z.string().optional(),
  ipAddress: z.string().optional(),
  userAgent: z.string().optional(),
  platform: caseInsensitiveEnum(["ios", "android", "web", "other"], "lower").optional(),
  os: z.string().optional(),
  osVersion: z.string().optional(),
  model: z.string().optional(),
  browser: z.string().optional(),
  language: z.string().optional(),
  timezone: z.string().optional(),
  isEmulator: z.boolean().optional(),
  isRooted: z.boolean().optional(),
  isVpn: z.boolean().optional(),
  isProxy: z.boolean().optional(),
  isTor: z.boolean().optional(),
  location: z
    .object({
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
      country: z.string().optional(),
      city: z.string().optional(),
    })
    .optional(),
});
export type TUserDevice = z.infer<typeof ZUserDevice>;

export const ONBOARDING_FEEDBACK_STATUSES = ["PENDING", "APPROVED", "DECLINED", "BLOCKED"] as const;
export const ZOnboardingFeedbackStatus = caseInsensitiveEnum(ONBOARDING_FEEDBACK_STATUSES, "upper");

export const ZAmlDetail = z.object({
  amlStatus: z.string().optional(),
  amlSource: z.string().optional(),
});

export const ZKycDetail = z.object({
  sourceOfIncome: z.string().optional(),
  kycStatus: z.string().optional(),
  kycSource: z.string().optional(),
  kycStatusMessage: z.string().optional(),
});

const dateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Expected date in YYYY-MM-DD format")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, "Expected a valid calendar date");

export const ZUser = z.object({
  id: ZId,
  timestamp: ZPastTimestamp,
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  dateOfBirth: dateOfBirth.optional(),
  address: ZAddress.optional(),
  company: z.string().optional(),
  phone: ZPhone.optional(),
  email: ZEmail.optional(),
  documents: z.array(ZUserDocument).optional(),
  lastLogin: z.number().optional(),
  userDevice: ZUserDevice.optional(),
  status: ZUserStatus.optional(),
  amlDetail: ZAmlDetail.optional(),
  kycDetail: ZKycDetail.optional(),
  salary: z
    .object({
      cycle: z.enum(["weekly", "bi-weekly", "monthly"]).optional(),
      amount: z.number().optional(),
      currency: z.string().optional(),
    })
    .optional(),
  referralCode: z.string().optional(),
  referrerCode: z.string().optional(),
  taxNumberId: z.string().optional(),
  guest: z.boolean().optional(),
  onboardingFeedback: z
    .object({
      id: ZIdRef.optional(),
      status: ZOnboardingFeedbackStatus.optional(),
      description: z.string().optional(),
      createdAt: z.number().optional(),
      type: z.string().optional(),
    })
    .optional(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserFeedback = z.object({
  userId: ZId,
  onboardingFeedback: z.object({
    status: ZOnboardingFeedbackStatus,
    description: z.string(),
    createdAt: ZEpochMs,
    id: ZIdRef.optional(),
    type: z.string().optional(),
  }),
  amlDetail: ZAmlDetail.optional(),
  kycDetail: ZKycDetail.optional(),
  referralCode: z.string().optional(),
  referrerCode: z.string().optional(),
});
export type TUserFeedback = z.infer<typeof ZUserFeedback>;

// ---------------------------------------------------------------- request and response shapes of the user endpoints

/** A query-string integer: digits only (a malformed value is a 400, never silently ignored), then bounds. */
export function ZQueryInteger({ min, max }: { min?: number; max?: number } = {}) {
  let n = z.number().int();
  if (min !== undefined) n = n.min(min);
  if (max !== undefined) n = n.max(max);
  return z
    .string()
    .regex(/^-?\d+$/, "Expected an integer")
    .transform((s) => Number(s))
    .pipe(n);
}

export const ZCreateUserResponse = z.object({ id: z.string(), status: z.literal("success") });

export const ZUserFeedbackResponse = z.object({ message: z.string(), userId: z.string() });

export const ZUserRecord = z.object({
  id: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  status: z.enum(STORED_USER_STATUSES),
  reason: z.string().nullable(),
});
export type TUserRecord = z.infer<typeof ZUserRecord>;
export const ZUserResponse = z.object({ user: ZUserRecord });

export const ZAddUserDevice = z.object({ userId: ZId, device: ZUserDevice });
export type TAddUserDevice = z.infer<typeof ZAddUserDevice>;
export const ZAddUserDeviceResponse = z.object({ id: z.string(), status: z.literal("success") });

export const ZBlockUser = z.object({ comment: z.string().optional(), reviewer: z.string().optional() });
export type TBlockUser = z.infer<typeof ZBlockUser>;

export const CLOSURE_TYPES = [
  "service_initiated",
  "user_requested",
  "user_requested_with_data_deletion",
] as const;
export const STATUS_REASONS = [
  "NO_REASON",
  "FINANCIAL_CRIME",
  "RISK_TOLERANCE",
  "FRAUDULENT_ACTIVITY",
  "LINKED_TO_FRAUD",
] as const;

export const ZUpdateUserStatus = z.object({
  // active or inactive only (blocking has its own endpoint).
  status: caseInsensitiveEnum(["active", "inactive"], "lower").optional(),
  completedAt: z.number().optional(),
  closureType: caseInsensitiveEnum(CLOSURE_TYPES, "lower").optional(),
  comment: z.string().optional(),
  initiatedBy: z.string().optional(),
  reason: caseInsensitiveEnum(STATUS_REASONS, "upper").optional(),
});
export type TUpdateUserStatus = z.infer<typeof ZUpdateUserStatus>;

export const ZUserStatusResponse = z.object({
  id: z.string(),
  status: z.enum(STORED_USER_STATUSES),
  updatedAt: z.number(),
  changed: z.boolean(),
});

export const BLOCKED_USERS_MAX_LIMIT = 1000;
export const ZBlockedUsersQuery = z.object({
  start: z.string().optional(),
  limit: ZQueryInteger({ min: 1, max: BLOCKED_USERS_MAX_LIMIT }).optional(),
});
export const ZBlockedUsersResponse = z.object({
  users: z.array(z.object({ id: z.string(), status: z.literal("blocked"), updatedAt: z.number() })),
  total: z.number(),
  cursor: z.string().nullable(),
});

export const ZTransactionPartiesStatus = z.object({
  status: ZStoredUserStatus.optional(),
  parties: caseInsensitiveEnum(["both", "user", "recipient"], "lower").optional(),
  comment: z.string().optional(),
  reviewer: z.string().optional(),
});
export type TTransactionPartiesStatus = z.infer<typeof ZTransactionPartiesStatus>;
export const ZTransactionPartiesStatusResponse = z.object({
  transactionId: z.string(),
  users: z.array(z.object({ id: z.string(), status: z.enum(STORED_USER_STATUSES) })),
});

export const ATTRIBUTES = [
  "phone",
  "email",
  "ipAddress",
  "deviceFingerprint",
  "bankAccountNumber",
  "cryptoAddress",
  "walletTaxNumberId",
  "walletPhone",
  "cardFingerprint",
] as const;
export const ZAttributeStatus = z.object({
  attribute: z.enum(ATTRIBUTES),
  value: ZNonEmptyString,
  status: ZUserStatus.optional(),
  comment: z.string().optional(),
  reviewer: z.string().optional(),
});
export type TAttributeStatus = z.infer<typeof ZAttributeStatus>;
export const ZAttributeStatusResponse = z.object({ status: z.literal("success"), matchedUsers: z.number() });
