import type { TFeature } from "@/lib/clients/schemas";

/** What each client feature is called on screen and what switching it on or off changes. */
const FEATURE_INFO: Record<TFeature, { label: string; on: string; off: string }> = {
  merchantRiskAssessment: {
    label: "Merchant risk assessment",
    on: "/v1/merchantRequest screens merchants.",
    off: "/v1/merchantRequest is refused: merchants are no longer screened.",
  },
  paymentInstrumentRules: {
    label: "Payment instrument rules",
    on: "Payment instruments are screened by their rules.",
    off: "Payment instruments are no longer screened by rules.",
  },
  eventRules: {
    label: "Event rules",
    on: "Events (logins, password changes, …) are screened by their rules.",
    off: "Events are stored but no longer screened by rules.",
  },
  transactionUpdateMonitoring: {
    label: "Transaction update monitoring",
    on: "Status updates of transactions are screened again.",
    off: "Status updates of transactions are stored without screening.",
  },
  walletVerification: {
    label: "Wallet verification",
    on: "Wallet payment instruments are verified when screened.",
    off: "Wallet payment instruments are no longer verified.",
  },
  reporting: {
    label: "Regulatory reporting",
    on: "Reports (goAML) can be drafted and filed.",
    off: "The reporting API refuses requests; existing reports stay.",
  },
};

/** What a save would switch on and off, in the order of the lists. */
export function listChanges<T extends string>(before: readonly T[], after: readonly T[], all: readonly T[]) {
  return all.flatMap((v) =>
    before.includes(v) === after.includes(v) ? [] : [{ value: v, on: after.includes(v) }],
  );
}

/** A stored feature's info; one this build does not know is shown by its name. */
export function featureInfo(feature: string): { label: string; on: string; off: string } {
  return FEATURE_INFO[feature as TFeature] ?? { label: feature, on: "", off: "" };
}
