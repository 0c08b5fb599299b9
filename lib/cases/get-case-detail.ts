import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";
import type { TCaseOutcome, TCaseStatus } from "@/lib/cases/schemas";
import { explainDecision, type TRuleExplanation } from "@/lib/transactions/get-transaction-detail";

type TPerson = { id: string; name: string | null; email: string };

export type TCaseAlert = {
  id: string;
  ruleId: string;
  ruleName: string;
  level: string;
  reason: string;
  recommendedAction: string;
  status: string;
  reviewedBy: string | null;
  reviewedAt: number | null;
  feedback: string | null;
  createdAt: number;
  /** The fired rule as its decision recorded it: condition and the values that made it fire. */
  explanation: TRuleExplanation | null;
};

export type TCaseTransaction = {
  id: string;
  amount: string;
  currencyCode: string;
  status: string;
  direction: string | null;
  riskLevel: string;
  isFraud: boolean;
  isChargeback: boolean;
  occurredAt: number;
  alerts: TCaseAlert[];
};

export type TCaseDetail = {
  case: {
    id: string;
    status: TCaseStatus;
    priority: string;
    dueAt: number;
    overdue: boolean;
    outcome: TCaseOutcome | null;
    note: string | null;
    closedAt: number | null;
    closedBy: TPerson | null;
    assignee: TPerson | null;
    createdAt: number;
    updatedAt: number;
    alertCount: number;
    report: { id: string; status: string } | null;
  };
  subject: {
    type: string;
    id: string;
    name: string | null;
    email: string | null;
    status: string | null;
    riskLevel: string | null;
  };
  /** The case's alerts grouped by transaction, newest transaction first. */
  transactions: TCaseTransaction[];
  /** The subject's transactions over time (the latest, oldest first), alerted ones marked. */
  activity: {
    id: string;
    occurredAt: number;
    amount: string;
    currencyCode: string;
    status: string;
    alerted: boolean;
  }[];
  events: {
    id: string;
    type: string;
    fromStatus: string | null;
    toStatus: string | null;
    actor: TPerson | null;
    note: string | null;
    details: unknown;
    createdAt: number;
  }[];
  /** Comments on the case's user (API and user page), newest first. */
  userComments: { id: string; comment: string; commenter: string; source: string; createdAt: number }[];
  /** Who the case can be assigned to. */
  reviewers: TPerson[];
  /** Every dashboard user of the client by id, to name the people in the history. */
  people: Record<string, TPerson>;
};

const ACTIVITY_LIMIT = 200;
const COMMENTS_LIMIT = 20;
const EXPLAINED_DECISIONS = 50;

/**
 * Everything the case page shows. Reporting officers see only cases escalated to them (with a report);
 * any other case, like another client's, is not found.
 */
export async function getCaseDetail({
  clientId,
  caseId,
  viewer,
}: {
  clientId: string;
  caseId: string;
  viewer: { id: string; role: TDashboardRole };
}): Promise<TCaseDetail> {
  const row = await prisma.case.findFirst({ where: { clientId, id: caseId } });
  if (!row || (viewer.role === "reporting_officer" && !row.reportId))
    throw notFound("/caseId", "Case not found");

  const [alerts, events, reviewers, report, user, merchant, comments] = await Promise.all([
    prisma.alert.findMany({ where: { clientId, caseId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    prisma.caseEvent.findMany({
      where: { clientId, caseId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    prisma.dashboardUser.findMany({
      where: { clientId },
      select: { id: true, name: true, email: true, role: true, disabledAt: true },
      orderBy: { email: "asc" },
    }),
    row.reportId
      ? prisma.report.findFirst({ where: { clientId, id: row.reportId }, select: { id: true, status: true } })
      : null,
    row.subjectType === "user"
      ? prisma.user.findFirst({
          where: { clientId, id: row.subjectId },
          select: { firstName: true, lastName: true, email: true, status: true, riskLevel: true },
        })
      : null,
    row.subjectType === "merchant"
      ? prisma.merchant.findFirst({
          where: { clientId, id: row.subjectId },
          select: { name: true, status: true, riskLevel: true },
        })
      : null,
    row.subjectType === "user"
      ? prisma.comment.findMany({
          where: { clientId, userId: row.subjectId },
          orderBy: { createdAt: "desc" },
          take: COMMENTS_LIMIT,
        })
      : [],
  ]);

  const txIds = [...new Set(alerts.map((a) => a.transactionId))];
  const subjectColumn = row.subjectType === "merchant" ? "merchantId" : "userId";
  const [transactions, activity, explanations] = await Promise.all([
    prisma.transaction.findMany({ where: { clientId, id: { in: txIds } } }),
    row.subjectType === "transaction"
      ? []
      : prisma.transaction.findMany({
          where: { clientId, [subjectColumn]: row.subjectId },
          select: { id: true, occurredAt: true, amount: true, currencyCode: true, status: true },
          orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
          take: ACTIVITY_LIMIT,
        }),
    Promise.all(
      [...new Set(alerts.map((a) => a.decisionId).filter((d): d is string => !!d))]
        .slice(-EXPLAINED_DECISIONS)
        .map((decisionId) => explainDecision({ clientId, decisionId })),
    ),
  ]);
  const explained = new Map(explanations.filter((e) => e !== null).map((e) => [e.id, e]));
  const people = new Map(reviewers.map((r) => [r.id, { id: r.id, name: r.name, email: r.email }]));
  const alertsByTx = new Map<string, TCaseAlert[]>();
  for (const a of alerts) {
    const decision = a.decisionId ? explained.get(a.decisionId) : undefined;
    const list = alertsByTx.get(a.transactionId) ?? [];
    list.push({
      id: a.id,
      ruleId: a.ruleId,
      ruleName: a.ruleName,
      level: a.level,
      reason: a.reason,
      recommendedAction: a.recommendedAction,
      status: a.status,
      reviewedBy: a.reviewedBy,
      reviewedAt: a.reviewedAt?.getTime() ?? null,
      feedback: a.feedback,
      createdAt: a.createdAt.getTime(),
      explanation: decision?.fired.find((f) => f.ruleId === a.ruleId) ?? null,
    });
    alertsByTx.set(a.transactionId, list);
  }
  const alerted = new Set(txIds);
  const now = Date.now();
  return {
    case: {
      id: row.id,
      status: row.status as TCaseStatus,
      priority: row.priority,
      dueAt: row.dueAt.getTime(),
      overdue: row.status !== "closed" && row.dueAt.getTime() < now,
      outcome: row.outcome as TCaseOutcome | null,
      note: row.closeNote,
      closedAt: row.closedAt?.getTime() ?? null,
      closedBy: row.closedById ? (people.get(row.closedById) ?? null) : null,
      assignee: row.assigneeId ? (people.get(row.assigneeId) ?? null) : null,
      createdAt: row.createdAt.getTime(),
      updatedAt: row.updatedAt.getTime(),
      alertCount: row.alertCount,
      report,
    },
    subject: {
      type: row.subjectType,
      id: row.subjectId,
      name: user
        ? [user.firstName, user.lastName].filter(Boolean).join(" ") || null
        : (merchant?.name ?? null),
      email: user?.email ?? null,
      status: user?.status ?? merchant?.status ?? null,
      riskLevel: user?.riskLevel ?? merchant?.riskLevel ?? null,
    },
    transactions: transactions
      .sort((x, y) => y.occurredAt.getTime() - x.occurredAt.getTime() || y.id.localeCompare(x.id))
      .map((t) => ({
        id: t.id,
        amount: t.amount.toString(),
        currencyCode: t.currencyCode,
        status: t.status,
        direction: t.direction,
        riskLevel: t.riskLevel,
        isFraud: t.isFraud,
        isChargeback: t.isChargeback,
        occurredAt: t.occurredAt.getTime(),
        alerts: alertsByTx.get(t.id) ?? [],
      })),
    activity: activity
      .map((t) => ({
        id: t.id,
        occurredAt: t.occurredAt.getTime(),
        amount: t.amount.toString(),
        currencyCode: t.currencyCode,
        status: t.status,
        alerted: alerted.has(t.id),
      }))
      .reverse(),
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      actor: e.actorId ? (people.get(e.actorId) ?? { id: e.actorId, name: null, email: e.actorId }) : null,
      note: e.note,
      details: e.details,
      createdAt: e.createdAt.getTime(),
    })),
    reviewers: reviewers
      .filter((r) => !r.disabledAt && (r.role === "admin" || r.role === "reviewer"))
      .map((r) => ({ id: r.id, name: r.name, email: r.email })),
    people: Object.fromEntries(people),
    userComments: comments.map((c) => ({
      id: c.id,
      comment: c.comment,
      commenter: c.commenterDisplayName ?? c.commenterId,
      source: c.source,
      createdAt: c.createdAt.getTime(),
    })),
  };
}
