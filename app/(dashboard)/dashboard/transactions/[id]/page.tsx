import { can, requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AlertStatusBadge } from "@/components/alerts/status-badge";
import { BaseAmount } from "@/components/transactions/base-amount";
import { ConfirmActions } from "@/components/transactions/confirm-actions";
import { ListLookups } from "@/components/transactions/list-lookups";
import { RuleExplanation } from "@/components/transactions/rule-explanation";
import { CommentForm } from "@/components/users/comment-form";
import {
  ClientText,
  Badge,
  Card,
  DateTime,
  EnumLabel,
  LevelBadge,
  linkClass,
  Money,
  PageHeader,
  PersonName,
} from "@/components/ui";
import { formatEnum, formatNumber, revealInvisible } from "@/lib/format";
import { DomainError } from "@/lib/errors/domain-error";
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
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("dashboard.read");
  const { id } = await params;
  const d = await load(user.clientId, safeDecode(id));
  const t = d.transaction;
  const canAct = can(user.role, "transactions.confirm");
  // a status set to CHARGEBACK through the API is one as much as a dashboard mark
  const isChargeback = t.isChargeback || t.status === "CHARGEBACK";
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
        title={
          <>
            Transaction <ClientText value={t.id} />
          </>
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <LevelBadge level={t.riskLevel} />
            <Badge>
              <EnumLabel value={t.recommendedAction} />
            </Badge>
            <EnumLabel value={t.status} />
            <Money amount={t.amount} currency={t.currencyCode} />
            <DateTime value={t.occurredAt} />
            {(t.isFraud || isChargeback) && (
              <span data-testid="transaction-flags" className="flex gap-1">
                {t.isFraud && <Badge tone="red">Confirmed fraud</Badge>}
                {isChargeback && <Badge tone="amber">Chargeback</Badge>}
              </span>
            )}
          </span>
        }
        actions={
          canAct ? (
            <ConfirmActions
              transactionId={t.id}
              isFraud={t.isFraud}
              isChargeback={isChargeback}
              openAlerts={d.alerts.filter((a) => a.status === "open" || a.status === "escalated").length}
            />
          ) : undefined
        }
      />

      {/* min-w-0: the request's long lines scroll inside their card instead of widening the page */}
      <div className="grid gap-4 lg:grid-cols-3 [&>*]:min-w-0">
        <Card title="Parties" className="lg:col-span-1">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">User</dt>
            <dd className="min-w-0 break-words">
              {t.userId ? (
                <Link className={linkClass} href={`/dashboard/users/${encodeURIComponent(t.userId)}`}>
                  <ClientText value={d.user?.name ?? t.userId} />
                </Link>
              ) : (
                "—"
              )}
              {d.user && <EnumLabel className="ml-2 text-xs text-slate-600" value={d.user.status} />}
            </dd>
            <dt className="text-slate-600">Merchant</dt>
            <dd className="min-w-0 break-words">
              <ClientText value={t.merchantId} />
            </dd>
            <dt className="text-slate-600">Direction</dt>
            <dd>{t.direction ? <EnumLabel value={t.direction} /> : "—"}</dd>
            <dt className="text-slate-600">Method</dt>
            <dd>{t.paymentMethod ? <EnumLabel value={t.paymentMethod} /> : "—"}</dd>
            <dt className="text-slate-600">Screened</dt>
            <dd>
              <DateTime value={t.assessedAt} />
            </dd>
          </dl>
        </Card>
        <Card title="Request as sent" className="lg:col-span-2">
          <pre
            className="max-h-80 overflow-auto rounded bg-slate-50 p-3 text-xs"
            data-testid="request-json"
            // a scrolling region keyboard users can reach and scroll
            tabIndex={0}
            aria-label="Request as sent"
          >
            {/* JSON keeps a right-to-left override as is: it would reorder the text shown around it */}
            {revealInvisible(JSON.stringify(t.request, null, 2))}
          </pre>
          <RequestChanges updates={d.updates} />
        </Card>
      </div>

      <Card
        title={
          decision
            ? `Decision: ${formatEnum(decision.riskLevel)} risk, ${formatEnum(decision.recommendedAction)}`
            : "Decision"
        }
      >
        {!decision ? (
          <p className="text-sm text-slate-600">No decision recorded.</p>
        ) : (
          <div className="space-y-4">
            <p className="text-xs text-slate-600">
              Evaluated <DateTime value={decision.createdAt} /> in {formatNumber(decision.durationMs, 1)} ms ·{" "}
              {decision.fired.length +
                decision.shadowHits.length +
                decision.errors.length +
                decision.notFired.length}{" "}
              rules
            </p>
            <BaseAmount fx={d.fx} />
            <ListLookups lookups={d.listLookups} />
            <section>
              <h3 className="mb-2 text-sm font-semibold">Rules that fired ({decision.fired.length})</h3>
              {decision.fired.length === 0 ? (
                <p className="text-sm text-slate-600">No active rule fired.</p>
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
                <p className="mb-2 text-xs text-slate-600">
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
              <div className="text-xs text-slate-600">
                Earlier decisions:
                <ul className="mt-1 space-y-0.5">
                  {d.previousDecisions.map((p) => (
                    <li key={p.id}>
                      <DateTime value={p.createdAt} />: {formatEnum(p.riskLevel)} risk,{" "}
                      {formatEnum(p.recommendedAction)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={`Alerts (${d.alerts.length})`}>
          {d.alerts.length === 0 ? (
            <p className="text-sm text-slate-600">No alerts.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="transaction-alerts">
              {d.alerts.map((a) => (
                <li key={a.id} className="py-2">
                  <div className="flex items-center gap-2">
                    <LevelBadge level={a.level} />
                    <span className="font-medium">{a.ruleId}</span>
                    <AlertStatusBadge status={a.status} />
                  </div>
                  {a.reviewer && (
                    <p className="text-xs text-slate-600">
                      <PersonName person={a.reviewer} /> · <DateTime value={a.reviewedAt} />
                      {a.feedback ? ` · ${a.feedback}` : ""}
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
                    {u.status ? formatEnum(u.status) : u.isFraudulent ? "Fraud confirmed" : "Update"}
                  </span>
                  <DateTime className="text-xs text-slate-600" value={u.occurredAt} />
                  <Badge tone={u.source === "dashboard" ? "blue" : "slate"}>
                    {u.actorPerson ? <PersonName person={u.actorPerson} /> : <EnumLabel value={u.source} />}
                  </Badge>
                </div>
                <p className="text-xs text-slate-700">
                  {[u.type && formatEnum(u.type), u.reason, u.description].filter(Boolean).join(" · ") || "—"}
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
              <p className="whitespace-pre-wrap break-words">{c.comment}</p>
              <p className="text-xs text-slate-600">
                <PersonName person={c.commenter} /> · <DateTime value={c.createdAt} /> ·{" "}
                <EnumLabel value={c.source} />
              </p>
            </li>
          ))}
        </ul>
        {canAct && t.userId && <CommentForm userId={t.userId} transactionId={t.id} />}
      </Card>
    </div>
  );
}

type TUpdate = TTransactionDetail["updates"][number];

/** One update's changes in words: `status → CHARGEBACK`, `card → {…}`, `isFraud: false → true`. */
function changeLines(u: TUpdate): string[] {
  const lines: string[] = [];
  const changes = (u.changes ?? {}) as Record<string, unknown>;
  const fromTo = (v: unknown): v is { from: unknown; to: unknown } =>
    typeof v === "object" && v !== null && "from" in v && "to" in v;
  if (u.status && !fromTo(changes.status)) lines.push(`status → ${u.status}`);
  if (u.isFraudulent !== null && !fromTo(changes.isFraud)) lines.push(`isFraudulent → ${u.isFraudulent}`);
  for (const [key, value] of Object.entries(changes)) {
    lines.push(
      fromTo(value)
        ? `${key}: ${JSON.stringify(value.from)} → ${JSON.stringify(value.to)}`
        : `${key} → ${JSON.stringify(value)}`,
    );
  }
  return lines;
}

/**
 * The changes made after the request was received (POST /v1/transaction/update, dashboard marks), oldest
 * first, under the request they change: the request above stays as it was sent.
 */
function RequestChanges({ updates }: { updates: TUpdate[] }) {
  const later = updates.filter((u) => u.type !== "submitted" && u.type !== "resubmitted");
  if (later.length === 0) return null;
  return (
    <section className="mt-3" data-testid="request-changes">
      <h3 className="mb-1 text-sm font-semibold">Changed since ({later.length})</h3>
      <ol className="space-y-2 text-sm">
        {later.map((u) => (
          <li key={u.id} className="border-l-2 border-slate-200 pl-3">
            <p className="text-xs text-slate-600">
              <DateTime value={u.createdAt} /> ·{" "}
              {u.actorPerson ? (
                <PersonName person={u.actorPerson} />
              ) : u.source === "api" ? (
                "API (/v1/transaction/update)"
              ) : (
                <EnumLabel value={u.source} />
              )}
              {u.reason ? ` · ${u.reason}` : ""}
            </p>
            <ul className="font-mono text-xs break-all">
              {changeLines(u).map((line, i) => (
                <li key={i}>{revealInvisible(line)}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
