import { SanctionsHits } from "@/components/sanctions/sanctions-hits";
import { Badge, EnumLabel, LevelBadge } from "@/components/ui";
import { formatAggregate, formatExactNumber } from "@/lib/format";
import type { TRuleExplanation } from "@/lib/transactions/get-transaction-detail";

function show(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `"${value}"`;
  // the value the condition compared, every digit: rounding could show 9,999.99996 as 10,000
  if (typeof value === "number") return formatExactNumber(value);
  return String(value);
}

/** More than cents: the explanation says these are exact, not a display rounding. */
function hasLongDecimals(values: unknown[]): boolean {
  return values.some((v) => typeof v === "number" && /\.\d{3,}/.test(String(v)));
}

/** One evaluated rule: its version, the CEL condition, and the values that decided it. */
export function RuleExplanation({
  rule,
  sanctions,
}: {
  rule: TRuleExplanation;
  /** Who a sanctions hit can be marked a false match for, and the pairs already marked. */
  sanctions?: { userId: string | null; canMark: boolean; marked: ReadonlySet<string> };
}) {
  const values = Object.entries(rule.values);
  const aggregates = Object.entries(rule.aggregates);
  // decisions recorded before links existed have no links field
  const links = Object.entries(rule.links ?? {});
  return (
    <li
      className="rounded-md border border-slate-200 p-3"
      data-testid="rule-explanation"
      data-rule-id={rule.ruleId}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{rule.ruleId}</span>
        <span className="text-sm text-slate-700">{rule.name}</span>
        <LevelBadge level={rule.level} />
        <Badge>
          <EnumLabel value={rule.recommendedAction} />
        </Badge>
        <Badge tone="blue">Version {rule.version}</Badge>
        {rule.status !== "active" && (
          <Badge tone="amber">
            <EnumLabel value={rule.status} />
          </Badge>
        )}
      </div>
      {rule.reason && <p className="mt-1 text-sm text-slate-700">{rule.reason}</p>}
      {rule.condition && (
        <pre
          className="mt-2 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
          tabIndex={0}
          aria-label="Condition"
        >
          {rule.condition}
        </pre>
      )}
      {(values.length > 0 || aggregates.length > 0 || links.length > 0) && (
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
          {values.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-mono text-slate-600">{k}</dt>
              <dd className="break-words font-mono">{show(v)}</dd>
            </div>
          ))}
          {aggregates.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-mono text-slate-600">aggregates.{k}</dt>
              <dd className="break-words">
                <span className="font-mono">{show(v)}</span>
                <span className="ml-2 text-slate-600">{formatAggregate(rule.aggregateDefinitions[k])}</span>
              </dd>
            </div>
          ))}
          {links.map(([k, v]) => (
            <div key={k} className="contents" data-testid="link-value">
              <dt className="break-all font-mono text-slate-600">{k}</dt>
              <dd className="font-mono">{show(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {hasLongDecimals([...values, ...aggregates].map(([, v]) => v)) && (
        <p className="mt-1 text-xs text-slate-600" data-testid="exact-values-note">
          Values exactly as the condition compared them, not rounded.
        </p>
      )}
      {rule.sanctions.length > 0 && (
        <SanctionsHits
          hits={rule.sanctions}
          userId={sanctions?.userId}
          canMark={sanctions?.canMark}
          marked={sanctions?.marked}
        />
      )}
      {rule.error && <p className="mt-2 text-xs text-red-700">Evaluation error: {rule.error}</p>}
    </li>
  );
}
