// The transaction's amount in the client's base currency and the rate used (docs/decisions.md §13), or the
// decision's note when no rate was known.
import { formatDate, formatMoney, formatNumber } from "@/lib/format";
import type { TFxConversion } from "@/lib/fx/rates";

export function BaseAmount({ fx }: { fx: TFxConversion | null }) {
  if (!fx) return null;
  if (fx.baseAmount === undefined)
    return (
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="base-amount">
        {fx.note ?? "No exchange rate was known"}
      </p>
    );
  const dates = Object.entries(fx.rateDates ?? {});
  return (
    <p className="text-sm text-slate-700" data-testid="base-amount">
      Base amount{" "}
      <span className="font-medium tabular-nums">{formatMoney(fx.baseAmount, fx.baseCurrency)}</span>
      {fx.currency !== fx.baseCurrency && (
        <>
          {" "}
          at 1 {fx.currency} = {formatNumber(fx.rate ?? 0, 8)} {fx.baseCurrency}
          {dates.length > 0 &&
            ` (rates of ${dates.map(([c, d]) => `${c} ${formatDate(`${d}T00:00:00Z`, "UTC")}`).join(", ")})`}
        </>
      )}
    </p>
  );
}
