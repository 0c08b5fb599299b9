import { z } from "zod";
import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";

export const FEATURES = [
  "merchantRiskAssessment",
  "paymentInstrumentRules",
  "eventRules",
  "transactionUpdateMonitoring",
  "walletVerification",
  "reporting",
] as const;
export type TFeature = (typeof FEATURES)[number];

export const ZFeature = z.enum(FEATURES);
export const ZRecommendedAction = z.enum(RECOMMENDED_ACTIONS);
export const ZClientType = z.enum(["business", "consumer"]);

export const ZReportingProfile = z.object({
  entityId: z.string().optional(),
  entityName: z.string().optional(),
  branch: z.string().optional(),
  currencyCodeLocal: z.string().length(3).optional(),
  reportingPerson: z
    .object({
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      title: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
      occupation: z.string().optional(),
    })
    .optional(),
  location: z
    .object({
      addressType: z.string().optional(),
      address: z.string().optional(),
      city: z.string().optional(),
      countryCode: z.string().optional(),
      zip: z.string().optional(),
      state: z.string().optional(),
    })
    .optional(),
  indicatorCodes: z.array(z.string()).optional(),
  // goAML code lists of the client's FIU (submission code, contact type, transmode by payment method, ...).
  codes: z
    .object({
      submissionCode: z.string().optional(),
      contactType: z.string().optional(),
      communicationType: z.string().optional(),
      fundsCode: z.string().optional(),
      transmode: z.record(z.string(), z.string()).optional(),
      reportCode: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  // An FIU-specific goAML schema replacing the generic 5.0.1 one: a file path, or the XSD text itself (uploaded in
  // Settings), with the name shown to officers.
  goamlSchemaPath: z.string().optional(),
  goamlSchemaXsd: z.string().optional(),
  goamlSchemaName: z.string().max(200).optional(),
  // Rule id → the FIU indicator codes a hit of that rule suggests for a report.
  indicatorMapping: z.record(z.string(), z.array(z.string())).optional(),
});
export type TReportingProfile = z.infer<typeof ZReportingProfile>;

export const ZCreateClient = z.object({
  name: z.string().trim().min(1),
  type: ZClientType,
  features: z.array(ZFeature).default([]),
  actions: z.array(ZRecommendedAction).min(1).optional(),
});
export type TCreateClient = z.input<typeof ZCreateClient>;

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** A client's base currency (docs/decisions.md §13): an ISO 4217 code. */
export const ZBaseCurrency = z
  .string()
  .trim()
  .toUpperCase()
  .refine(
    (code) => /^[A-Z]{3}$/.test(code) && ISO_CURRENCIES.has(code),
    "Expected an ISO 4217 currency code",
  );

/** Users a shared identifier may have and still link them (docs/decisions.md §14); default 50. */
export const DEFAULT_FAN_OUT_CAP = 50;
export const MAX_FAN_OUT_CAP = 10_000;
export const ZFanOutCap = z
  .number({ message: "Expected a whole number" })
  .int("Expected a whole number")
  .min(2, "At least 2: a value held by one user links nobody anyway")
  .max(MAX_FAN_OUT_CAP, `At most ${MAX_FAN_OUT_CAP}`);

/** Whole months of transactions kept before the current month (retention; at least a year, at most a century). */
export const ZRetentionMonths = z
  .number({ message: "Expected a whole number of months" })
  .int("Expected a whole number of months")
  .min(12, "At least 12 months: records are kept for at least a year")
  .max(1200, "At most 1200 months");

export const ZConfigureClient = z.object({
  clientId: z.string().min(1),
  name: z.string().trim().min(1).optional(),
  features: z.array(ZFeature).optional(),
  actions: z.array(ZRecommendedAction).min(1).optional(),
  reportingProfile: ZReportingProfile.optional(),
  baseCurrency: ZBaseCurrency.optional(),
  linkFanOutCap: ZFanOutCap.optional(),
  retentionMonths: ZRetentionMonths.optional(),
});
export type TConfigureClient = z.input<typeof ZConfigureClient>;
