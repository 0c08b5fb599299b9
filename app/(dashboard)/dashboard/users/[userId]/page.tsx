import { can, requirePagePermission } from "@/lib/auth/permissions";
import { notFound } from "next/navigation";
import { UserSanctionsCard } from "@/components/sanctions/user-sanctions-card";
import { TransactionsTable } from "@/components/transactions/transactions-table";
import { NetworkView } from "@/components/links/network-view";
import { CommentForm } from "@/components/users/comment-form";
import { StatusActions } from "@/components/users/status-actions";
import { UserStatusBadge } from "@/components/users/users-table";
import {
  ClientText,
  Badge,
  Card,
  DateTime,
  EnumLabel,
  LevelBadge,
  PageHeader,
  PersonName,
} from "@/components/ui";
import { DomainError } from "@/lib/errors/domain-error";
import { listSanctionsFalseMatches } from "@/lib/sanctions/mark-false-match";
import { explainDecision } from "@/lib/transactions/get-transaction-detail";
import { getUserProfile, type TUserProfile } from "@/lib/users/get-user-profile";

/** Route params may arrive percent-encoded; an id that is not valid encoding is used as is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function load(clientId: string, userId: string): Promise<TUserProfile> {
  try {
    return await getUserProfile({ clientId, userId });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
}

function summary(data: unknown, keys: string[]): string {
  if (!data || typeof data !== "object") return "";
  const rec = data as Record<string, unknown>;
  return keys
    .map((k) => rec[k])
    .filter((v) => v !== undefined && v !== null && typeof v !== "object")
    .join(" · ");
}

type TStatusChange = TUserProfile["statusHistory"][number];

/**
 * What a status change says and who made it. A dashboard change's reason only repeats its comment and
 * reviewer (the webhook's text), so the comment stands alone there.
 */
function StatusChangeNote({
  change,
  className,
  empty = "—",
}: {
  change: TStatusChange;
  className?: string;
  empty?: string | null;
}) {
  const reason = change.source === "dashboard" || change.reason === change.comment ? null : change.reason;
  const notes = [change.comment, reason].filter((x): x is string => !!x).join(" · ");
  return (
    <span className={className}>
      {notes}
      {change.reviewer && (
        <>
          {notes && " · "}By <PersonName person={change.reviewer} />
        </>
      )}
      {!notes && !change.reviewer && empty}
    </span>
  );
}

export default async function UserPage({ params }: { params: Promise<{ userId: string }> }) {
  const viewer = await requirePagePermission("dashboard.read");
  const { userId } = await params;
  const p = await load(viewer.clientId, safeDecode(userId));
  const u = p.user;
  const canAct = can(viewer.role, "users.review");
  const name = [u.firstName, u.lastName].filter(Boolean).join(" ");
  // The change that set the current status, shown as comment and reviewer rather than the webhook's reason text.
  const latestChange = p.statusHistory[0]?.toStatus === u.status ? p.statusHistory[0] : undefined;
  const [onboarding, falseMatches] = await Promise.all([
    u.decisionId ? explainDecision({ clientId: viewer.clientId, decisionId: u.decisionId }) : null,
    listSanctionsFalseMatches({ clientId: viewer.clientId, userId: u.id }),
  ]);
  const sanctionsRules = onboarding
    ? [...onboarding.fired, ...onboarding.shadowHits].filter((r) => r.sanctions.length > 0)
    : [];
  return (
    <div className="space-y-6">
      <PageHeader
        title={
          name ? (
            <>
              <ClientText value={name} /> (<ClientText value={u.id} />)
            </>
          ) : (
            <>
              User <ClientText value={u.id} />
            </>
          )
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="user-status">
              <UserStatusBadge status={u.status} />
            </span>
            {latestChange ? (
              <StatusChangeNote className="text-slate-600" change={latestChange} empty={null} />
            ) : (
              u.statusReason && <span className="text-slate-600">{u.statusReason}</span>
            )}
          </span>
        }
        actions={canAct ? <StatusActions userId={u.id} status={u.status} /> : undefined}
      />
      {/* min-w-0: a long id or record line wraps or scrolls inside its card instead of widening the page */}
      <div className="grid gap-4 lg:grid-cols-3 [&>*]:min-w-0">
        <Card title="Profile">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">Email</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]" data-testid="user-email">
              {u.email ?? "—"}
            </dd>
            <dt className="text-slate-600">Phone</dt>
            <dd>{u.phone ?? "—"}</dd>
            <dt className="text-slate-600">Created</dt>
            <dd>
              <DateTime value={u.createdAt} />
            </dd>
            <dt className="text-slate-600">Updated</dt>
            <dd>
              <DateTime value={u.updatedAt} />
            </dd>
            <dt className="text-slate-600">Onboarding</dt>
            <dd>
              {u.riskLevel ? (
                <>
                  <LevelBadge level={u.riskLevel} />{" "}
                  {u.recommendedAction && (
                    <EnumLabel className="text-slate-700" value={u.recommendedAction} />
                  )}
                </>
              ) : (
                "Not screened"
              )}
            </dd>
          </dl>
          <details className="mt-3">
            <summary className="cursor-pointer text-xs text-slate-700">Latest record as sent</summary>
            <pre
              className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs"
              tabIndex={0}
              aria-label="Latest record as sent"
            >
              {JSON.stringify(u.data, null, 2)}
            </pre>
          </details>
        </Card>
        <Card title={`Devices (${p.devices.length})`}>
          {p.devices.length === 0 ? (
            <p className="text-sm text-slate-600">No devices.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {p.devices.map((d) => (
                <li key={d.id} className="py-1.5">
                  <div className="break-all font-mono text-xs">{d.id}</div>
                  <div className="break-words text-xs text-slate-600">
                    {[d.fingerprint, d.ipAddress, summary(d.data, ["platform", "os", "model", "browser"])]
                      .filter(Boolean)
                      .join(" · ")}
                  </div>
                  <div className="text-xs text-slate-600">
                    Last seen <DateTime value={d.lastSeenAt} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title={`Payment instruments (${p.instruments.length})`}>
          {p.instruments.length === 0 ? (
            <p className="text-sm text-slate-600">No payment instruments.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {p.instruments.map((i) => (
                <li key={i.id} className="py-1.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="break-all font-mono text-xs">{i.id}</span>
                    <Badge>{i.method ? <EnumLabel value={i.method} /> : "Unknown method"}</Badge>
                    <Badge tone={i.status === "linked" ? "green" : "slate"}>
                      <EnumLabel value={i.status} />
                    </Badge>
                    {i.inferred && <Badge tone="blue">Inferred</Badge>}
                  </div>
                  <div className="text-xs text-slate-600">
                    <DateTime value={i.updatedAt} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Card title={<span id="network-title">Network: who this person is linked to</span>}>
        <NetworkView userId={u.id} canAct={canAct} />
      </Card>

      {(sanctionsRules.length > 0 || falseMatches.length > 0) && (
        <UserSanctionsCard userId={u.id} rules={sanctionsRules} falseMatches={falseMatches} canAct={canAct} />
      )}

      <Card title="Transactions">
        <TransactionsTable initialFilters={{}} fixedUserId={u.id} />
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Status history">
          <ol className="space-y-2 text-sm">
            {p.statusHistory.map((s) => (
              <li key={s.id} className="border-l-2 border-slate-200 pl-3" data-testid="status-history-row">
                <div className="flex flex-wrap items-center gap-2">
                  <span>
                    {s.fromStatus ? <EnumLabel value={s.fromStatus} /> : "New"} →{" "}
                    <EnumLabel className="font-medium" value={s.toStatus} />
                  </span>
                  <DateTime className="text-xs text-slate-600" value={s.createdAt} />
                  <Badge tone={s.source === "dashboard" ? "blue" : "slate"}>
                    <EnumLabel value={s.source} />
                  </Badge>
                </div>
                <StatusChangeNote className="block text-xs text-slate-700" change={s} />
              </li>
            ))}
          </ol>
        </Card>
        <Card title={`Comments (${p.comments.length})`}>
          <ul
            className="mb-4 max-h-96 space-y-2 overflow-auto"
            data-testid="user-comments"
            tabIndex={0}
            aria-label="Posted comments"
          >
            {p.comments.map((c) => (
              <li key={c.id} className="rounded-md bg-slate-50 p-2 text-sm">
                <p className="whitespace-pre-wrap break-words">{c.comment}</p>
                <p className="text-xs text-slate-600">
                  <PersonName person={c.commenter} /> · <DateTime value={c.createdAt} /> ·{" "}
                  <EnumLabel value={c.source} />
                  {c.transactionId && <> · on {c.transactionId}</>}
                </p>
              </li>
            ))}
          </ul>
          {canAct && <CommentForm userId={u.id} />}
        </Card>
      </div>
    </div>
  );
}
