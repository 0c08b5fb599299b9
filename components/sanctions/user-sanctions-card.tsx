import { RemoveFalseMatch } from "@/components/sanctions/false-match-actions";
import { SanctionsHits } from "@/components/sanctions/sanctions-hits";
import { Card, DateTime } from "@/components/ui";
import type { TFalseMatch } from "@/lib/sanctions/mark-false-match";
import type { TRuleExplanation } from "@/lib/transactions/get-transaction-detail";

/** The user page's sanctions section: hits of the latest onboarding screening and the false-match marks. */
export function UserSanctionsCard({
  userId,
  rules,
  falseMatches,
  canAct,
}: {
  userId: string;
  rules: TRuleExplanation[];
  falseMatches: TFalseMatch[];
  canAct: boolean;
}) {
  const marked = new Set(falseMatches.map((m) => `${m.datasetId}/${m.entityId}`));
  return (
    <Card title="Sanctions screening">
      <div className="space-y-4" data-testid="user-sanctions">
        {rules.map((r) => (
          <section key={r.versionId}>
            <h3 className="text-sm font-medium">
              {r.ruleId} <span className="font-normal text-slate-600">· {r.name} · latest onboarding</span>
            </h3>
            <SanctionsHits hits={r.sanctions} userId={userId} canMark={canAct} marked={marked} />
          </section>
        ))}
        {rules.length === 0 && (
          <p className="text-sm text-slate-600">No sanctions match at the latest onboarding screening.</p>
        )}
        {falseMatches.length > 0 && (
          <section>
            <h3 className="mb-1 text-sm font-medium">False matches ({falseMatches.length})</h3>
            <p className="mb-2 text-xs text-slate-600">
              These entities no longer score for this user (other users are unaffected).
            </p>
            <ul className="divide-y divide-slate-100 text-sm" data-testid="false-matches">
              {falseMatches.map((m) => (
                <li key={`${m.datasetId}/${m.entityId}`} className="flex flex-wrap items-center gap-2 py-1.5">
                  <span className="font-medium">{m.entityName}</span>
                  <span className="font-mono text-xs text-slate-600">
                    {m.datasetId}/{m.entityId}
                  </span>
                  <span className="text-xs text-slate-600">
                    for “{m.screenedName}” · <DateTime value={m.createdAt} />
                    {m.note && <> · {m.note}</>}
                  </span>
                  {canAct && (
                    <RemoveFalseMatch
                      userId={userId}
                      datasetId={m.datasetId}
                      entityId={m.entityId}
                      entityName={m.entityName}
                    />
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </Card>
  );
}
