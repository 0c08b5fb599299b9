"use client";

import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useSaveSettings } from "@/components/settings/hooks";
import { Button, Card, ErrorNote, inputClass } from "@/components/ui";

/**
 * How long transactions are kept: whole months before the current one. Older months are archived (CSV
 * with a checksum) and deleted by the operator's `retention` command; reports, cases and audit are kept.
 */
export function RetentionCard({ initial }: { initial: number }) {
  const [text, setText] = useState(String(initial));
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  const save = useSaveSettings(() => ({ retentionMonths: value }));
  return (
    <Card title="Retention" className="mt-6">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <p className="text-sm text-slate-700">
          Transactions and their decisions older than this many whole months before the current month are
          archived by the operator (a CSV file per month with its SHA-256 checksum) and then deleted from the
          service. Reports, cases, alerts, comments and the audit trail are never deleted by it.
        </p>
        <label className="block max-w-xs text-xs font-medium text-slate-700">
          Retention period (months)
          <input
            className={inputClass}
            inputMode="numeric"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="retention-help"
          />
        </label>
        <p id="retention-help" className="text-xs text-slate-600">
          At least 12; the default is 60 (five years, the usual period for AML records).
        </p>
        {save.isError && <ErrorNote>{errorMessage(save.error)}</ErrorNote>}
        {save.isSuccess && (
          <p role="status" className="text-sm text-emerald-800">
            Saved: transactions are kept for {value} months before the current one.
          </p>
        )}
        <Button type="submit" disabled={save.isPending || value === initial || text.trim() === ""}>
          Save retention period
        </Button>
      </form>
    </Card>
  );
}
