// Starter rule set loaded by the seed so `npm run dev` gives meaningful answers.
// Optional fields are read with `.?field.orValue(...)` so a request without them evaluates to
// false instead of recording an evaluation error on every decision.
import { importRules } from "@/lib/rules/import-rules";
import type { TRuleDefinition } from "@/lib/rules/schemas";

const RISKY_COUNTRIES = "['IR', 'KP', 'SY', 'CU', 'MM', 'AF', 'YE']";
const DAY_MS = 86_400_000;
// Amounts compare in the client's base currency (lib/fx); a currency without a known rate falls back
// to the amount as sent, so a missing rate never switches an amount rule off.
const AMOUNT = "transaction.?baseAmount.orValue(transaction.amount)";

export const DEMO_RULES: TRuleDefinition[] = [
  {
    id: "TX-LARGE-AMOUNT",
    name: "Large amount",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: "Amount of 10,000 or more in the base currency",
    condition: `${AMOUNT} >= 10000`,
  },
  {
    id: "TX-VERY-LARGE-AMOUNT",
    name: "Very large amount",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "STEP_UP_ID",
    reason: "Amount of 50,000 or more in the base currency",
    condition: `${AMOUNT} >= 50000`,
  },
  {
    id: "TX-USER-VELOCITY-1H",
    name: "Many transactions by one user in an hour",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "FLAG_FOR_MONITORING",
    reason: "More than 10 transactions by the user in 1h",
    condition: "aggregates.userTx1h > 10",
    aggregates: { userTx1h: { function: "count", over: "transaction", groupBy: "userId", window: "1h" } },
  },
  {
    id: "TX-PAYOUT-VELOCITY",
    name: "Many payouts in a day",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "More than 3 payouts in 24h",
    condition: "transaction.?direction.orValue('') == 'payout' && aggregates.payouts24h > 3",
    aggregates: {
      payouts24h: {
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        where: "transaction.direction == 'payout'",
      },
    },
  },
  {
    id: "TX-DAILY-VOLUME",
    name: "High daily volume",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: "User moved more than 25,000 (base currency) in 24h",
    condition: "aggregates.volume24h > 25000",
    aggregates: {
      volume24h: {
        function: "sum",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        field: "baseAmount",
      },
    },
  },
  {
    id: "TX-CARD-VELOCITY",
    name: "Card used many times",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "STEP_UP_AUTH",
    reason: "Card used more than 5 times in 24h",
    condition: "transaction.?card.?cardFingerprint.hasValue() && aggregates.cardTx24h > 5",
    aggregates: {
      cardTx24h: { function: "count", over: "transaction", groupBy: "card.cardFingerprint", window: "24h" },
    },
  },
  {
    id: "TX-DEVICE-SHARED",
    name: "Device shared by many users",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "More than 3 users on the same device in 7 days",
    condition: "aggregates.usersOnDevice7d > 3",
    aggregates: {
      usersOnDevice7d: {
        function: "countDistinct",
        over: "transaction",
        groupBy: "userDeviceId",
        window: "7d",
        field: "userId",
      },
    },
  },
  {
    id: "TX-NEW-ACCOUNT-PAYOUT",
    name: "Payout from a new account",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "STEP_UP_KYC",
    reason: "Payout of 1,000 or more within 7 days of account creation",
    condition:
      `transaction.?direction.orValue('') == 'payout' && ${AMOUNT} >= 1000 && ` +
      `has(user.createdAt) && transaction.timestamp - user.createdAt < ${7 * DAY_MS}`,
  },
  {
    id: "TX-BLOCKED-USER",
    name: "Blocked user",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "The user is blocked",
    condition: "user.?status.orValue('') == 'blocked'",
  },
  {
    id: "TX-BLOCKED-MERCHANT",
    name: "Blocked merchant",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "The merchant is blocked",
    condition: "merchant.?status.orValue('') == 'blocked'",
  },
  {
    id: "TX-RISKY-COUNTRY",
    name: "High-risk country",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "Billing address or card issued in a high-risk country",
    condition:
      `transaction.?billingAddress.?country.orValue('') in ${RISKY_COUNTRIES} || ` +
      `transaction.?card.?binCountry.orValue('') in ${RISKY_COUNTRIES}`,
  },
  {
    id: "TX-BIN-COUNTRY-MISMATCH",
    name: "Card country differs from billing country",
    subject: "transaction",
    status: "active",
    riskLevel: "medium_low",
    recommendedAction: "STEP_UP_AUTH",
    reason: "Card BIN country does not match the billing address country",
    condition:
      "transaction.?card.?binCountry.hasValue() && transaction.?billingAddress.?country.hasValue() && " +
      "transaction.card.binCountry != transaction.billingAddress.country",
  },
  {
    id: "TX-CRYPTO-NEW-ADDRESS",
    name: "Crypto payout to a new address",
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: "First payout to this crypto address in 30 days",
    condition:
      "transaction.?direction.orValue('') == 'payout' && transaction.?crypto.?address.hasValue() && " +
      "aggregates.addressUses30d == 1",
    aggregates: {
      addressUses30d: { function: "count", over: "transaction", groupBy: "crypto.address", window: "30d" },
    },
  },
  {
    id: "TX-STRUCTURING",
    name: "Structuring under 10,000",
    subject: "transaction",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "REPORT_SUSPICIOUS",
    reason: "Three or more amounts between 9,000 and 9,999 in 24h",
    condition: "transaction.amount >= 9000 && transaction.amount < 10000 && aggregates.nearThreshold24h >= 3",
    aggregates: {
      nearThreshold24h: {
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        where: "transaction.amount >= 9000 && transaction.amount < 10000",
      },
    },
  },
  {
    id: "TX-ROUND-AMOUNT",
    name: "Round amount (trial)",
    subject: "transaction",
    status: "dry-run",
    riskLevel: "low",
    recommendedAction: "FLAG_FOR_MONITORING",
    reason: "Round amount of 1,000 or more; being trialled before activation",
    condition: "transaction.amount >= 1000 && int(transaction.amount) % 1000 == 0",
  },
  {
    id: "USER-RISKY-COUNTRY",
    name: "Onboarding from a high-risk country",
    subject: "user",
    status: "active",
    riskLevel: "high",
    recommendedAction: "STEP_UP_KYC",
    reason: "Address in a high-risk country",
    condition: `user.?address.?country.orValue('') in ${RISKY_COUNTRIES}`,
  },
  {
    id: "EVENT-FAILED-LOGINS",
    name: "Burst of failed logins",
    subject: "event",
    status: "active",
    riskLevel: "high",
    recommendedAction: "STEP_UP_AUTH",
    reason: "Five or more failed logins in 10 minutes",
    condition: "event.type == 'login_failed' && aggregates.failedLogins10m >= 5",
    aggregates: {
      failedLogins10m: {
        function: "count",
        over: "event",
        groupBy: "userId",
        window: "10m",
        where: "event.type == 'login_failed'",
      },
    },
  },
];

export async function seedDemoRules(clientId: string): Promise<void> {
  await importRules({ clientId, rules: DEMO_RULES, actor: "seed" });
}

/** Merchant onboarding rules, for the business demo client (merchant screening is for business clients). */
export const DEMO_MERCHANT_RULES: TRuleDefinition[] = [
  {
    id: "MERCHANT-HIGH-RISK-MCC",
    name: "High-risk merchant category",
    subject: "merchant",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "Gambling, quasi-cash or money transfer category (MCC 7995, 6051, 4829)",
    condition: "merchant.?mcc.orValue('') in ['7995', '6051', '4829']",
  },
  {
    id: "MERCHANT-RISKY-COUNTRY",
    name: "Merchant in a high-risk country",
    subject: "merchant",
    status: "active",
    riskLevel: "very_high",
    recommendedAction: "BLOCK",
    reason: "Merchant registered in a high-risk country",
    condition: `merchant.?country.orValue('') in ${RISKY_COUNTRIES}`,
  },
];

export async function seedDemoMerchantRules(clientId: string): Promise<void> {
  await importRules({ clientId, rules: [...DEMO_RULES, ...DEMO_MERCHANT_RULES], actor: "seed" });
}
