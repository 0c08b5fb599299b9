import { MarkFalseMatch } from "@/components/sanctions/false-match-actions";
import { formatFixed } from "@/lib/format";
import { Badge } from "@/components/ui";
import type { TSanctionsHit } from "@/lib/sanctions/score-context";

function scoreTone(score: number): "red" | "amber" | "slate" {
  return score >= 0.9 ? "red" : score >= 0.75 ? "amber" : "slate";
}

/**
 * Sanctions entities a rule matched, each beside the name that was screened. With `userId` (and the
 * right to act) a reviewer can mark a hit as a false match; `marked` holds "dataset/entity" keys
 * already marked for that user.
 */
export function SanctionsHits({
  hits,
  userId,
  canMark,
  marked,
}: {
  hits: TSanctionsHit[];
  userId?: string | null;
  canMark?: boolean;
  marked?: ReadonlySet<string>;
}) {
  return (
    <div className="mt-2 overflow-x-auto rounded-md border border-red-200" data-testid="sanctions-hits">
      <table className="w-full text-left text-xs">
        <thead className="bg-red-50 text-slate-600">
          <tr>
            <th className="px-2 py-1.5 font-medium">Screened name</th>
            <th className="px-2 py-1.5 font-medium">Listed entity</th>
            <th className="px-2 py-1.5 font-medium">List · programme</th>
            <th className="px-2 py-1.5 text-right font-medium">Score</th>
            {userId && <th className="px-2 py-1.5" />}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {hits.map((h) => {
            const key = `${h.datasetId}/${h.entityId}`;
            return (
              <tr key={`${h.screenedName}|${key}`} data-testid="sanctions-hit" className="align-top">
                <td className="px-2 py-1.5">
                  <div className="font-medium">{h.screenedName}</div>
                  {h.birthDate && <div className="text-slate-600">born {h.birthDate}</div>}
                </td>
                <td className="px-2 py-1.5">
                  <div className="font-medium">{h.entityName}</div>
                  {h.matchedName !== h.entityName && (
                    <div className="text-slate-600">matched alias: {h.matchedName}</div>
                  )}
                  <div className="font-mono text-slate-600">{h.entityId}</div>
                </td>
                <td className="px-2 py-1.5">
                  <div className="font-mono">{h.datasetId}</div>
                  <div className="text-slate-600">{h.programme ?? "—"}</div>
                </td>
                <td className="px-2 py-1.5 text-right">
                  <Badge tone={scoreTone(h.score)}>{formatFixed(h.score, 2)}</Badge>
                </td>
                {userId && (
                  <td className="px-2 py-1.5 text-right">
                    {marked?.has(key) ? (
                      <Badge tone="green">marked false match</Badge>
                    ) : canMark ? (
                      <MarkFalseMatch
                        userId={userId}
                        datasetId={h.datasetId}
                        entityId={h.entityId}
                        entityName={h.entityName}
                        screenedName={h.screenedName}
                      />
                    ) : null}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
