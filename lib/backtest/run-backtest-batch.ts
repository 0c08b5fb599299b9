// A backtest runs in batches the dashboard requests one after another (each a bounded amount of
// work, so progress is visible and no request runs long); the cursor is the keyset position.
import type { TSessionUser } from "@/lib/auth/session";
import { pgPool, prisma } from "@/lib/db";
import { evaluateWithLists, liveListSource } from "@/lib/lists/in-list";
import { currentListIndexes } from "@/lib/lists/list-cache";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound, validationError } from "@/lib/http/errors";
import { compiledRuleVersion } from "@/lib/rules/cel";
import type { TAggregateDefinition } from "@/lib/rules/schemas";
import { aggregateKey, computeAggregates, type TAggregateRequest } from "@/lib/screening/aggregates";
import { storedEntity, storedMerchant } from "@/lib/screening/assessment";
import { evaluateRule, type TLoadedRule, type TRuleAggregates } from "@/lib/screening/evaluate-rules";

export type TBacktestHit = {
  transactionId: string;
  amount: string;
  currencyCode: string;
  occurredAt: number;
};

export type TBacktestBatchResult = {
  ruleId: string;
  versionId: string;
  version: number;
  /** Transactions in the period, counted on the first batch only (capped at TOTAL_CAP). */
  total: number | null;
  processed: number;
  hits: TBacktestHit[];
  errors: number;
  /** A sample error message, so an author sees why evaluations failed. */
  firstError: string | null;
  nextCursor: string | null;
};

export const TOTAL_CAP = 1_000_000;

type TCursor = { at: number; id: string };

function decodeCursor(cursor: string | undefined): TCursor | null {
  if (!cursor) return null;
  const [at, ...rest] = cursor.split(":");
  const id = rest.join(":");
  if (!at || !/^\d+$/.test(at) || !id) throw validationError(["/cursor: Invalid cursor"]);
  return { at: Number(at), id };
}

/**
 * Evaluates one rule version over the next batch of the client's stored transactions in
 * [from, to], oldest first. Aggregates are computed as of each transaction's own timestamp with
 * the screening engine's aggregate code, and the condition sees the variables recorded when the
 * transaction was screened (the stored user and merchant of that moment).
 */
export async function runBacktestBatch(
  user: TSessionUser,
  input: {
    ruleId: string;
    versionId?: string;
    from: number;
    to: number;
    cursor?: string;
    batchSize?: number;
  },
): Promise<TBacktestBatchResult> {
  const clientId = user.clientId;
  if (input.to < input.from) throw validationError(["/to: Must not be before from"]);
  const rule = await prisma.rule.findUnique({
    where: { clientId_ruleId: { clientId, ruleId: input.ruleId } },
    select: {
      id: true,
      subject: true,
      versions: {
        where: input.versionId ? { id: input.versionId } : {},
        orderBy: { version: "desc" },
        take: 1,
      },
    },
  });
  if (!rule) throw notFound("/ruleId", "Rule not found");
  const version = rule.versions[0];
  if (!version) throw notFound("/versionId", "Rule version not found");
  if (version.subject !== "transaction")
    throw validationError([
      "/ruleId: Backtests replay stored transactions, so only transaction rules can be backtested",
    ]);

  const loaded: TLoadedRule = {
    ruleRef: rule.id,
    ruleId: input.ruleId,
    // evaluated as if active: the question is whether it would have fired
    status: "active",
    versionId: version.id,
    version: version.version,
    name: version.name,
    riskLevel: version.riskLevel,
    recommendedAction: version.recommendedAction,
    reason: version.reason,
    condition: version.condition,
    aggregates: (version.aggregates ?? {}) as Record<string, TAggregateDefinition>,
  };

  const from = new Date(input.from);
  const to = new Date(input.to);
  const cursor = decodeCursor(input.cursor);
  const batchSize = Math.min(500, Math.max(1, input.batchSize ?? 200));

  let total: number | null = null;
  if (!cursor) {
    const counted = await prisma.$queryRaw<Array<{ n: bigint }>>(Prisma.sql`
      SELECT count(*) AS n FROM (SELECT 1 FROM "transactions"
        WHERE "clientId" = ${clientId} AND "occurredAt" >= ${from} AND "occurredAt" <= ${to} LIMIT ${TOTAL_CAP}) s`);
    total = Number(counted[0]?.n ?? 0);
  }

  const rows = await prisma.$queryRaw<
    Array<{
      id: string;
      occurredAt: Date;
      amount: Prisma.Decimal;
      currencyCode: string;
      data: unknown;
      userId: string | null;
      merchantId: string | null;
      decisionId: string | null;
    }>
  >(Prisma.sql`
    SELECT "id", "occurredAt", "amount", "currencyCode", "data", "userId", "merchantId", "decisionId"
    FROM "transactions"
    WHERE "clientId" = ${clientId} AND "occurredAt" >= ${from} AND "occurredAt" <= ${to}
      ${cursor ? Prisma.sql`AND ("occurredAt", "id") > (${new Date(cursor.at)}, ${cursor.id})` : Prisma.empty}
    ORDER BY "occurredAt", "id"
    LIMIT ${batchSize}`);

  const variablesById = await screeningVariables(clientId, rows);
  const result: TBacktestBatchResult = {
    ruleId: input.ruleId,
    versionId: version.id,
    version: version.version,
    total,
    processed: rows.length,
    hits: [],
    errors: 0,
    firstError: null,
    nextCursor: null,
  };

  let requests: TAggregateRequest[] = [];
  let compileError: string | null = null;
  try {
    const compiled = compiledRuleVersion({ ...loaded, id: loaded.versionId, subject: "transaction" });
    requests = Object.entries(loaded.aggregates).map(([name, spec]) => ({
      spec,
      where: compiled.wheres[name],
    }));
  } catch (err) {
    compileError = (err as Error).message;
  }

  // inList reads the lists as they are now: the backtest answers "what if I publish now"
  const lists = liveListSource(
    await currentListIndexes(pgPool(), clientId, [{ ...loaded, subject: "transaction" }]),
  );
  for (const row of rows) {
    const variables = variablesById.get(row.id) ?? { transaction: row.data };
    const seen: TRuleAggregates = { values: {}, errors: {} };
    if (!compileError && requests.length) {
      const values = await computeAggregates(prisma, {
        clientId,
        subject: "transaction",
        subjectId: row.id,
        timestamp: row.occurredAt.getTime(),
        variables,
        aggregates: requests,
      });
      for (const [name, spec] of Object.entries(loaded.aggregates)) {
        const value = values.get(aggregateKey(spec));
        if (!value) seen.errors[name] = "not computed";
        else if ("error" in value) seen.errors[name] = value.error;
        else seen.values[name] = value.value;
      }
    }
    const { result: evaluated } = evaluateWithLists(lists, () =>
      evaluateRule("transaction", loaded, variables, seen),
    );
    if (evaluated.error) {
      result.errors++;
      result.firstError ??= evaluated.error;
    } else if (evaluated.triggered) {
      result.hits.push({
        transactionId: row.id,
        amount: row.amount.toString(),
        currencyCode: row.currencyCode,
        occurredAt: row.occurredAt.getTime(),
      });
    }
  }
  const last = rows[rows.length - 1];
  if (last && rows.length === batchSize) result.nextCursor = `${last.occurredAt.getTime()}:${last.id}`;
  return result;
}

/** The variables each transaction was screened with, from its decision; rebuilt when there is none. */
async function screeningVariables(
  clientId: string,
  rows: Array<{
    id: string;
    data: unknown;
    userId: string | null;
    merchantId: string | null;
    decisionId: string | null;
  }>,
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const decisionIds = rows.flatMap((r) => (r.decisionId ? [r.decisionId] : []));
  const decisions = decisionIds.length
    ? await prisma.decision.findMany({
        where: { clientId, id: { in: decisionIds } },
        select: { id: true, input: true },
      })
    : [];
  const inputs = new Map(
    decisions.map((d) => [d.id, (d.input as { variables?: Record<string, unknown> }).variables]),
  );
  const missing = rows.filter((r) => !(r.decisionId && inputs.get(r.decisionId)));
  const userIds = [...new Set(missing.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const merchantIds = [...new Set(missing.flatMap((r) => (r.merchantId ? [r.merchantId] : [])))];
  const [users, merchants] = await Promise.all([
    userIds.length ? prisma.user.findMany({ where: { clientId, id: { in: userIds } } }) : [],
    merchantIds.length ? prisma.merchant.findMany({ where: { clientId, id: { in: merchantIds } } }) : [],
  ]);
  const usersById = new Map(users.map((u) => [u.id, u]));
  const merchantsById = new Map(merchants.map((m) => [m.id, m]));
  for (const row of rows) {
    const recorded = row.decisionId ? inputs.get(row.decisionId) : undefined;
    if (recorded) {
      out.set(row.id, recorded);
      continue;
    }
    const variables: Record<string, unknown> = { transaction: row.data };
    const u = storedEntity(row.userId ? (usersById.get(row.userId) ?? null) : null);
    const m = storedMerchant(row.merchantId ? (merchantsById.get(row.merchantId) ?? null) : null);
    if (u) variables.user = u;
    if (m) variables.merchant = m;
    out.set(row.id, variables);
  }
  return out;
}
