import { can, requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AlertStatusBadge } from "@/components/alerts/status-badge";
import { ConfirmActions } from "@/components/transactions/confirm-actions";
import { RuleExplanation } from "@/components/transactions/rule-explanation";
import { CommentForm } from "@/components/users/comment-form";
import { Badge, Card, formatTime, LevelBadge, PageHeader } from "@/components/ui";
import { ApiError } from "@/lib/http/errors";
import { listSanctionsFalseMatches } from "@/lib/sanctions/mark-false-match";
import { getTransactionDetail, type TTransactionDetail } from "@/lib/transactions/get-transaction-detail";

/** Route params may arrive percent-encoded; an id that is not valid encoding is used as is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function load(clientId: string, transactionId: string): Promise<TTransactionDetail> {
  try {
    return await getTransactionDetail({ clientId, transactionId });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("dashboard.read");
  const { id } = await params;
  const d = await load(user.clientId, safeDecode(id));
  const t = d.transaction;
  const canAct = can(user.role, "transactions.confirm");
  const decision = d.decision;
  const sanctions = {
    userId: t.userId,
    canMark: canAct,
    marked: new Set(
      [...(decision?.fired ?? []), ...(decision?.shadowHits ?? [])].some((r) => r.sanctions.length > 0) &&
        t.userId
        ? (await listSanctionsFalseMatches({ clientId: user.clientId, userId: t.userId })).map(
            (m) => `${m.datasetId}/${m.entityId}`,
          )
        : [],
    ),
  };
  return (
    <div className="space-y-6">
      <PageHeader
        title={`Transaction ${t.id}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <LevelBadge level={t.riskLevel} />
            <Badge>{t.recommendedAction}</Badge>
            <span data-testid="transaction-status">{t.status}</span>
            <span className="tabular-nums">
              {t.amount} {t.currencyCode}
            </span>
            <span>{formatTime(t.occurredAt)}</span>
            {t.isFraud && <Badge tone="red">confirmed fraud</Badge>}
            {t.isChargeback && <Badge tone="amber">chargeback</Badge>}
          </span>
        }
        actions={
          canAct ? (
            <ConfirmActions transactionId={t.id} isFraud={t.isFraud} isChargeback={t.isChargeback} />
          ) : undefined
        }
      />

      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Parties" className="lg:col-span-1">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">User</dt>
            <dd>
              {t.userId ? (
                <Link
                  className="text-brand-700 hover:underline"
                  href={`/dashboard/users/${encodeURIComponent(t.userId)}`}
                >
                  {d.user?.name ?? t.userId}
                </Link>
              ) : (
                "—"
              )}
              {d.user && <span className="ml-2 text-xs text-slate-500">{d.user.status}</span>}
            </dd>
            <dt className="text-slate-500">Merchant</dt>
            <dd>{t.merchantId ?? "—"}</dd>
            <dt className="text-slate-500">Direction</dt>
            <dd>{t.direction ?? "—"}</dd>
            <dt className="text-slate-500">Method</dt>
            <dd>{t.paymentMethod ?? "—"}</dd>
            <dt className="text-slate-500">Screened</dt>
            <dd>{formatTime(t.assessedAt)}</dd>
          </dl>
        </Card>
        <Card title="Request as sent" className="lg:col-span-2">
          <pre className="max-h-80 overflow-auto rounded bg-slate-50 p-3 text-xs" data-testid="request-json">
            {JSON.stringify(t.request, null, 2)}
          </pre>
        </Card>
      </div>

      <Card title={decision ? `Decision: ${decision.riskLevel} / ${decision.recommendedAction}` : "Decision"}>
        {!decision ? (
          <p className="text-sm text-slate-500">No decision recorded.</p>
        ) : (
          <div className="space-y-4">
            <p className="text-xs text-slate-500">
              Evaluated {formatTime(decision.createdAt)} in {decision.durationMs.toFixed(1)} ms ·{" "}
              {decision.fired.length +
                decision.shadowHits.length +
                decision.errors.length +
                decision.notFired.length}{" "}
              rules
            </p>
            <section>
              <h3 className="mb-2 text-sm font-semibold">Rules that fired ({decision.fired.length})</h3>
              {decision.fired.length === 0 ? (
                <p className="text-sm text-slate-500">No active rule fired.</p>
              ) : (
                <ul className="space-y-2" data-testid="fired-rules">
                  {decision.fired.map((r) => (
                    <RuleExplanation key={r.versionId} rule={r} sanctions={sanctions} />
                  ))}
                </ul>
              )}
            </section>
            {decision.shadowHits.length > 0 && (
              <section>
                <h3 className="mb-1 text-sm font-semibold">
                  Dry-run and muted hits ({decision.shadowHits.length})
                </h3>
                <p className="mb-2 text-xs text-slate-500">
                  Recorded for tuning only: never in the answer, alerts or webhooks.
                </p>
                <ul className="space-y-2" data-testid="shadow-hits">
                  {decision.shadowHits.map((r) => (
                    <RuleExplanation key={r.versionId} rule={r} sanctions={sanctions} />
                  ))}
                </ul>
              </section>
            )}
            {decision.errors.length > 0 && (
              <section>
                <h3 className="mb-2 text-sm font-semibold text-red-700">
                  Evaluation errors ({decision.errors.length})
                </h3>
                <ul className="space-y-2">
                  {decision.errors.map((r) => (
                    <RuleExplanation key={r.versionId} rule={r} />
                  ))}
                </ul>
              </section>
            )}
            {decision.notFired.length > 0 && (
              <details>
                <summary className="cursor-pointer text-sm text-slate-600">
                  Rules that did not fire ({decision.notFired.length})
                </summary>
                <ul className="mt-2 space-y-2">
                  {decision.notFired.map((r) => (
                    <RuleExplanation key={r.versionId} rule={r} />
                  ))}
                </ul>
              </details>
            )}
            {d.previousDecisions.length > 0 && (
              <p className="text-xs text-slate-500">
                Earlier decisions:{" "}
                {d.previousDecisions
                  .map((p) => `${formatTime(p.createdAt)} ${p.riskLevel}/${p.recommendedAction}`)
                  .join("; ")}
              </p>
            )}
          </div>
        )}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={`Alerts (${d.alerts.length})`}>
          {d.alerts.length === 0 ? (
            <p className="text-sm text-slate-500">No alerts.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="transaction-alerts">
              {d.alerts.map((a) => (
                <li key={a.id} className="py-2">
                  <div className="flex items-center gap-2">
                    <LevelBadge level={a.level} />
                    <span className="font-medium">{a.ruleId}</span>
                    <AlertStatusBadge status={a.status} />
                  </div>
                  {a.reviewedBy && (
                    <p className="text-xs text-slate-500">
                      {a.reviewedBy} · {formatTime(a.reviewedAt)} {a.feedback ? `· ${a.feedback}` : ""}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Status history">
          <ol className="space-y-2 text-sm" data-testid="transaction-history">
            {d.updates.map((u) => (
              <li key={u.id} className="border-l-2 border-slate-200 pl-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">
                    {u.status ?? (u.isFraudulent ? "fraud confirmed" : "update")}
                  </span>
                  <span className="text-xs text-slate-500">{formatTime(u.occurredAt)}</span>
                  <Badge tone={u.source === "dashboard" ? "blue" : "slate"}>
                    {u.source === "dashboard" ? (u.actor ?? "dashboard") : u.source}
                  </Badge>
                </div>
                <p className="text-xs text-slate-600">
                  {[u.type, u.reason, u.description].filter(Boolean).join(" · ") || "—"}
                </p>
              </li>
            ))}
          </ol>
        </Card>
      </div>

      <Card title={`Comments on this transaction (${d.comments.length})`}>
        <ul className="mb-4 space-y-2">
          {d.comments.map((c) => (
            <li key={c.id} className="rounded-md bg-slate-50 p-2 text-sm">
              <p>{c.comment}</p>
              <p className="text-xs text-slate-500">
                {c.commenter} · {formatTime(c.createdAt)} · {c.source}
              </p>
            </li>
          ))}
        </ul>
        {canAct && t.userId && <CommentForm userId={t.userId} transactionId={t.id} />}
      </Card>
    </div>
  );
}
