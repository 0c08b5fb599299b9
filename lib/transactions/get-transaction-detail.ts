import { prisma } from "@/lib/db";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import type { TPerson } from "@/lib/format";
import type { TFxConversion } from "@/lib/fx/rates";
import type { TListLookup } from "@/lib/lists/in-list";
import { notFound } from "@/lib/errors/domain-error";
import type { TSanctionsHit } from "@/lib/sanctions/score-context";
import type { TEvaluatedRule } from "@/lib/screening/evaluate-rules";
import { conditionValues } from "@/lib/transactions/condition-values";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";

export type TRuleExplanation = {
  ruleId: string;
  name: string;
  status: string;
  version: number;
  versionId: string;
  level: string;
  recommendedAction: string;
  reason: string | null;
  condition: string | null;
  aggregateDefinitions: Record<string, unknown>;
  /** Aggregate values the rule saw (from the Decision row). */
  aggregates: Record<string, number | null>;
  /** The links.* calls the rule made and their values (`links.count("phone")` → 2). */
  links: Record<string, number>;
  /** Input fields the condition mentions, with the values screened. */
  values: Record<string, unknown>;
  triggered: boolean;
  error: string | null;
  /** Sanctions entities a triggered rule matched, beside the screened name. */
  sanctions: TSanctionsHit[];
};

export type TDecisionExplanation = {
  id: string;
  riskLevel: string;
  recommendedAction: string;
  createdAt: number;
  durationMs: number;
  /** Active rules that fired: they made the answer. */
  fired: TRuleExplanation[];
  /** dry-run and muted rules that fired: recorded only, never answered or alerted. */
  shadowHits: TRuleExplanation[];
  errors: TRuleExplanation[];
  notFired: TRuleExplanation[];
};

export type TTransactionDetail = {
  transaction: {
    id: string;
    userId: string | null;
    merchantId: string | null;
    status: string;
    amount: string;
    currencyCode: string;
    direction: string | null;
    paymentMethod: string | null;
    riskLevel: string;
    recommendedAction: string;
    isFraud: boolean;
    isChargeback: boolean;
    occurredAt: number;
    assessedAt: number;
    createdAt: number;
    updatedAt: number;
    /** The request body exactly as received (later updates are in `updates`). */
    request: unknown;
  };
  user: { id: string; name: string | null; status: string } | null;
  decision: TDecisionExplanation | null;
  /** The current decision's conversion to the client's base currency: the rate used, or why none was. */
  fx: TFxConversion | null;
  /** Every inList lookup of the current decision, with the entry matched. */
  listLookups: TListLookup[];
  /** Earlier decisions (an update re-screened the transaction), newest first. */
  previousDecisions: { id: string; riskLevel: string; recommendedAction: string; createdAt: number }[];
  updates: {
    id: string;
    status: string | null;
    type: string | null;
    reason: string | null;
    description: string | null;
    isFraudulent: boolean | null;
    source: string;
    actor: string | null;
    /** The dashboard user who made a dashboard change, as a person. */
    actorPerson: TPerson | null;
    /** What the update changed besides the status: the update's `transaction` fields, or from/to pairs. */
    changes: unknown;
    occurredAt: number;
    createdAt: number;
  }[];
  alerts: {
    id: string;
    ruleId: string;
    ruleName: string;
    level: string;
    status: string;
    reviewedBy: string | null;
    reviewer: TPerson | null;
    reviewedAt: number | null;
    feedback: string | null;
    createdAt: number;
  }[];
  comments: { id: string; comment: string; commenter: TPerson; source: string; createdAt: number }[];
};

const HISTORY_LIMIT = 200;

/** Everything the transaction page shows, each part one indexed query. 404 for another client's id. */
export async function getTransactionDetail({
  clientId,
  transactionId,
}: {
  clientId: string;
  transactionId: string;
}): Promise<TTransactionDetail> {
  const tx = (
    await readStoredTransaction(prisma, clientId, transactionId, (where) =>
      prisma.transaction.findUnique({ where }),
    )
  )?.row;
  if (!tx) throw notFound("/transactionId", "Transaction not found");

  // The current decision is explained in the same round as the rest: its id is on the row.
  const [current, decisions, updates, alerts, comments, user, fxInput] = await Promise.all([
    tx.decisionId ? explainDecision({ clientId, decisionId: tx.decisionId }) : null,
    prisma.decision.findMany({
      where: { clientId, subjectType: "transaction", subjectId: transactionId },
      orderBy: { createdAt: "desc" },
      take: 20,
      select: { id: true, riskLevel: true, recommendedAction: true, createdAt: true },
    }),
    prisma.transactionUpdate.findMany({
      where: { clientId, transactionId },
      orderBy: { createdAt: "asc" },
      take: HISTORY_LIMIT,
    }),
    prisma.alert.findMany({ where: { clientId, transactionId }, orderBy: { createdAt: "asc" } }),
    tx.userId
      ? prisma.comment.findMany({
          where: { clientId, userId: tx.userId, transactionId },
          orderBy: { createdAt: "desc" },
          take: HISTORY_LIMIT,
        })
      : [],
    tx.userId
      ? prisma.user.findUnique({
          where: { clientId_id: { clientId, id: tx.userId } },
          select: { id: true, firstName: true, lastName: true, status: true },
        })
      : null,
    tx.decisionId
      ? prisma.decision.findFirst({ where: { clientId, id: tx.decisionId }, select: { input: true } })
      : null,
  ]);

  // A transaction replaced mid-screening may have no decisionId yet: fall back to its newest decision.
  const currentId = tx.decisionId ?? decisions[0]?.id ?? null;
  const [decision, people] = await Promise.all([
    current ?? (currentId ? explainDecision({ clientId, decisionId: currentId }) : null),
    resolvePeople({
      clientId,
      emails: [
        ...alerts.map((a) => a.reviewedBy),
        ...updates.filter((u) => u.source === "dashboard").map((u) => u.actor),
      ],
      ids: comments.filter((c) => c.source === "dashboard").map((c) => c.commenterId),
    }),
  ]);
  return {
    transaction: {
      id: tx.id,
      userId: tx.userId,
      merchantId: tx.merchantId,
      status: tx.status,
      amount: tx.amount.toString(),
      currencyCode: tx.currencyCode,
      direction: tx.direction,
      paymentMethod: tx.paymentMethod,
      riskLevel: tx.riskLevel,
      recommendedAction: tx.recommendedAction,
      isFraud: tx.isFraud,
      isChargeback: tx.isChargeback,
      occurredAt: tx.occurredAt.getTime(),
      assessedAt: tx.assessedAt.getTime(),
      createdAt: tx.createdAt.getTime(),
      updatedAt: tx.updatedAt.getTime(),
      request: tx.requestData ?? tx.data,
    },
    user: user
      ? {
          id: user.id,
          name: [user.firstName, user.lastName].filter(Boolean).join(" ") || null,
          status: user.status,
        }
      : null,
    decision,
    fx: (fxInput?.input as { fx?: TFxConversion } | null)?.fx ?? null,
    listLookups: (fxInput?.input as { lists?: TListLookup[] } | null)?.lists ?? [],
    previousDecisions: decisions
      .filter((d) => d.id !== currentId)
      .map((d) => ({ ...d, createdAt: d.createdAt.getTime() })),
    updates: updates.map((u) => ({
      id: u.id,
      status: u.status,
      type: u.type,
      reason: u.reason,
      description: u.description,
      isFraudulent: u.isFraudulent,
      source: u.source,
      actor: u.actor,
      actorPerson: u.source === "dashboard" ? people.byEmail(u.actor) : null,
      changes: u.changes,
      occurredAt: u.occurredAt.getTime(),
      createdAt: u.createdAt.getTime(),
    })),
    alerts: alerts.map((a) => ({
      id: a.id,
      ruleId: a.ruleId,
      ruleName: a.ruleName,
      level: a.level,
      status: a.status,
      reviewedBy: a.reviewedBy,
      reviewer: people.byEmail(a.reviewedBy),
      reviewedAt: a.reviewedAt?.getTime() ?? null,
      feedback: a.feedback,
      createdAt: a.createdAt.getTime(),
    })),
    comments: comments.map((c) => ({
      id: c.id,
      comment: c.comment,
      commenter: people.commenter(c),
      source: c.source,
      createdAt: c.createdAt.getTime(),
    })),
  };
}

/** A stored decision with each evaluated rule's version, condition, aggregate values and the inputs it read. */
export async function explainDecision({
  clientId,
  decisionId,
}: {
  clientId: string;
  decisionId: string;
}): Promise<TDecisionExplanation | null> {
  const decision = await prisma.decision.findFirst({ where: { clientId, id: decisionId } });
  if (!decision) return null;
  // Partial: decisions are JSON, and one written by an older engine may lack fields.
  type TStoredEvaluation = Partial<TEvaluatedRule> & {
    ruleId: string;
    status: string;
    sanctions?: TSanctionsHit[];
  };
  const evaluated = (Array.isArray(decision.evaluated)
    ? decision.evaluated
    : []) as unknown as TStoredEvaluation[];
  const aggregates = (decision.aggregates ?? {}) as Record<string, Record<string, number | null>>;
  const variables = ((decision.input as { variables?: Record<string, unknown> } | null)?.variables ??
    {}) as Record<string, unknown>;
  const links = ((decision.input as { links?: Record<string, Record<string, number>> } | null)?.links ??
    {}) as Record<string, Record<string, number>>;
  const versions = await prisma.ruleVersion.findMany({
    // Defensive: a decision written by an older engine (or by hand) may lack version ids.
    where: {
      clientId,
      id: { in: evaluated.map((e) => e.versionId).filter((id): id is string => typeof id === "string") },
    },
    select: { id: true, reason: true, condition: true, aggregates: true },
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  const explained: TRuleExplanation[] = evaluated.map((e, i) => {
    const v = e.versionId ? byId.get(e.versionId) : undefined;
    return {
      ruleId: e.ruleId,
      name: e.name ?? e.ruleId,
      status: e.status,
      version: e.version ?? 0,
      versionId: e.versionId ?? `${e.ruleId}#${i}`,
      level: e.level ?? "n/a",
      recommendedAction: e.recommendedAction ?? "",
      reason: v?.reason ?? null,
      condition: v?.condition ?? null,
      aggregateDefinitions: (v?.aggregates ?? {}) as Record<string, unknown>,
      aggregates: (e.versionId && aggregates[e.versionId]) || {},
      links: (e.versionId && links[e.versionId]) || {},
      values: v ? conditionValues(v.condition, variables) : {},
      triggered: e.triggered === true,
      error: e.error ?? null,
      sanctions: Array.isArray(e.sanctions) ? e.sanctions : [],
    };
  });
  return {
    id: decision.id,
    riskLevel: decision.riskLevel,
    recommendedAction: decision.recommendedAction,
    createdAt: decision.createdAt.getTime(),
    durationMs: decision.durationMs,
    fired: explained.filter((r) => r.triggered && r.status === "active"),
    shadowHits: explained.filter((r) => r.triggered && r.status !== "active"),
    errors: explained.filter((r) => !r.triggered && r.error),
    notFired: explained.filter((r) => !r.triggered && !r.error),
  };
}
