"use client";

import { NumberSettingCard } from "@/components/settings/number-setting-card";

/**
 * How long transactions are kept: whole months before the current one. Older months are archived (CSV
 * with a checksum) and deleted by the operator's `retention` command; reports, cases and audit are kept.
 */
export function RetentionCard({ initial }: { initial: number }) {
  return (
    <NumberSettingCard
      title="Retention"
      setting="retentionMonths"
      initial={initial}
      label="Retention period (months)"
      help="At least 12; the default is 60 (five years, the usual period for AML records)."
      saveLabel="Save retention period"
      saved={(value) => `Saved: transactions are kept for ${value} months before the current one.`}
    >
      Transactions and their decisions older than this many whole months before the current month are archived
      by the operator (a CSV file per month with its SHA-256 checksum) and then deleted from the service.
      Reports, cases, alerts, comments and the audit trail are never deleted by it.
    </NumberSettingCard>
  );
}
