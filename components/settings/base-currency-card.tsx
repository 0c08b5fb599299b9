"use client";

import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useSaveSettings } from "@/components/settings/hooks";
import { Button, Card, ConfirmDialog, ErrorNote, inputClass } from "@/components/ui";
import { formatDate, formatNumber } from "@/lib/format";
import type { TFxRatesSummary } from "@/lib/fx/fx-rates-summary";

/**
 * The client's base currency (transaction.baseAmount) and the rate table it converts with. The
 * currency names come from the server: the browser's Intl data may differ, and the markup must not.
 */
export function BaseCurrencyCard({
  initial,
  rates,
  currencies,
}: {
  initial: string;
  rates: TFxRatesSummary;
  currencies: ReadonlyArray<{ code: string; name: string }>;
}) {
  const [currency, setCurrency] = useState(initial);
  const save = useSaveSettings(() => ({ baseCurrency: currency }));
  // Rules compare baseAmount against fixed numbers: a new currency changes what they fire on.
  const [confirming, setConfirming] = useState(false);
  return (
    <Card title="Base currency" className="mt-6">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          setConfirming(true);
        }}
      >
        <p className="text-sm text-slate-700">
          Rules compare <code className="font-mono">transaction.baseAmount</code>, the amount converted to
          this currency at the rate of the transaction&apos;s date (or the nearest earlier one). A transaction
          in a currency without a rate is screened without it, and its decision says so.
        </p>
        <label className="block max-w-sm text-xs font-medium text-slate-700">
          Base currency
          <select className={inputClass} value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {currencies.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </select>
        </label>
        <p className="text-sm text-slate-600" data-testid="fx-summary">
          {rates.rates === 0
            ? "No exchange rates are loaded yet (operator command: fx import FILE)."
            : `Exchange rates loaded: ${formatNumber(rates.currencies)} currencies, ${formatNumber(rates.rates)} rates, the latest dated ${formatDate(`${rates.latestDate}T00:00:00Z`, "UTC")}.`}
        </p>
        {save.isError && <ErrorNote>{errorMessage(save.error)}</ErrorNote>}
        {save.isSuccess && (
          <p role="status" className="text-sm text-emerald-800">
            Saved: new transactions convert to {currency}.
          </p>
        )}
        <Button type="submit" disabled={save.isPending || currency === initial}>
          Save base currency
        </Button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={`Change the base currency from ${initial} to ${currency}?`}
        description={`From the next screening request, transaction.baseAmount is in ${currency}. Rule thresholds are not converted: a rule comparing baseAmount with 10,000 then fires on 10,000 ${currency}. Transactions already screened keep the amounts they were screened with.`}
        confirmLabel={`Switch to ${currency}`}
        pending={save.isPending}
        onConfirm={() => save.mutate(undefined, { onSettled: () => setConfirming(false) })}
        onClose={() => {
          if (!save.isPending) setConfirming(false);
        }}
      />
    </Card>
  );
}
