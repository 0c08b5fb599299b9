import type { Pool } from "pg";
import type { TKeyedRead } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool } from "@/lib/db";
import { baseAmountConverter, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import type { TFxConversion } from "@/lib/fx/rates";
import { notFound } from "@/lib/errors/domain-error";
import { computeAggregates } from "@/lib/screening/aggregates";
import type { TSqlParams } from "@/lib/screening/cel-sql";
import { assessment, storedEntity, storedMerchant } from "@/lib/screening/assessment";
import { screeningConfig, type TScreeningConfig } from "@/lib/screening/screening-config";
import { decide } from "@/lib/screening/decide";
import { decidedWrite } from "@/lib/screening/sql/decision-write";
import type { TPartyRead } from "@/lib/screening/sql/inline-parties";
import { abortUnlessWritten, commitWrite, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { newId, Params, prepared, rawTx } from "@/lib/screening/sql/statements";
import { transactionAlertCtes } from "@/lib/screening/sql/webhook-rows";
import { planAggregates } from "@/lib/screening/run-rules";
import type { TTransactionAssessment } from "@/lib/screening/screen-transaction";
import { updatedStatus, type TTransactionUpdate } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import { rowUserIdentifiersCte } from "@/lib/screening/sql/identifier-rows";

// POST /v1/transaction/update in raw SQL (README.md here).
//
// Without transactionUpdateMonitoring: ONE statement (row update, its history row, the user's new
// identifiers). The row update is transaction_apply_update: the row's month from transaction_keys, then
// the UPDATE in that partition alone. The shallow merge of the stored body is the UPDATE's own
// (`data || patch`), so concurrent updates of one transaction apply one after the other under the row lock.
//
// By id alone, a statement on "transactions" would be planned over every month partition (9 ms at 68
// months): the read goes through transaction_versioned and the write names the row's "occurredAt".
//
// With monitoring the updated row is screened again, without BEGIN/COMMIT: ONE read (the stored row
// with its version, user and merchant), the update planned in memory (merge, base amount at the rates
// known now), ONE read of every aggregate (the updated row taking part as a virtual row), the rules in
// memory, then ONE write statement (row with its outcome, history row, identifiers, decision, alerts,
// webhook rows). The write is optimistic: it updates the row only while it is the version read
// (xmin), and otherwise aborts as a whole (division by zero in its last SELECT) and starts again from
// the read, so a concurrent update is never lost.

/** What the request changes, whatever the stored row holds. */
function updatePlan(body: TTransactionUpdate) {
  // The deprecated feedback object fills what the top-level fields leave out.
  const status = updatedStatus(body);
  // the keys the update replaces in the stored body (a shallow merge)
  const patch: Record<string, unknown> = {};
  if (status) patch.status = status;
  const change = body.transaction;
  if (change) {
    for (const key of ["accountId", "paymentMethod", "bank", "card", "vas", "cash"] as const) {
      if (change[key] !== undefined) patch[key] = change[key];
    }
  }
  return {
    status,
    patch,
    change,
    // linked to the transaction's user (rowUserIdentifiersCte)
    identifiers: change ? identifiersFromPaymentMethods(change) : [],
    type: body.type ?? body.feedback?.type,
    description: body.description ?? body.feedback?.description,
    occurredAt: new Date(body.timestamp ?? body.feedback?.createdAt ?? Date.now()),
  };
}
type TUpdatePlan = ReturnType<typeof updatePlan>;

/** The history row and the identifiers, inserted for the row that the CTE `upd` (id, userId) updated. */
function updateSideCtes(p: Params, clientId: string, body: TTransactionUpdate, plan: TUpdatePlan): string[] {
  const c = p.add(clientId, "text");
  const ctes = [
    `tu AS (INSERT INTO "transaction_updates" ("id", "clientId", "transactionId", "status", "reason", "description",
         "type", "isFraudulent", "source", "changes", "occurredAt")
       SELECT ${p.add(newId(), "text")}, ${c}, upd."id", ${p.add(plan.status ?? null, "text")},
         ${p.add(body.reason ?? null, "text")}, ${p.add(plan.description ?? null, "text")},
         ${p.add(plan.type ?? null, "text")}, ${p.add(body.isFraudulent ?? null, "boolean")}, 'api',
         ${p.json(plan.change ?? null)}, ${p.add(plan.occurredAt, "timestamptz")}
       FROM upd)`,
  ];
  const identifiers = rowUserIdentifiersCte(p, {
    clientId,
    identifiers: plan.identifiers,
    source: "transaction",
    from: "upd",
  });
  if (identifiers) ctes.push(`ui AS (${identifiers})`);
  return ctes;
}

export async function updateTransaction({
  client,
  body,
  prefetched = null,
}: {
  client: TClientContext;
  body: TTransactionUpdate;
  /** With monitoring: the read, already made with the key read for this client at its current versions. */
  prefetched?: TUpdatePrefetched | null;
}): Promise<{ status: "Success" } | TTransactionAssessment> {
  const pool = pgPool();
  const plan = updatePlan(body);
  if (!client.features.has("transactionUpdateMonitoring")) {
    const p = new Params();
    // the row's month first (transaction_keys): a statement by id alone would open every month partition
    const { rowCount } = await pool.query(
      `WITH upd AS (SELECT * FROM "transaction_apply_update"(${p.add(client.id, "text")},
         ${p.add(body.transactionId, "text")}, ${p.add(plan.status ?? null, "text")},
         ${p.add(body.isFraudulent ?? null, "boolean")}, ${p.json(plan.patch)}, ${p.add(new Date(), "timestamptz")})),
       ${updateSideCtes(p, client.id, body, plan).join(",\n")}
       SELECT 1 FROM upd`,
      p.values,
    );
    if (!rowCount) throw notFound("/transactionId", "Transaction not found");
    return { status: "Success" };
  }
  const config = await screeningConfig(pool, client);
  const convert = await baseAmountConverter(client);
  // a row changed between the read and the write aborts the write (nothing written): read again
  return retryOnConflict((attempt) =>
    rescreenOnce(pool, {
      clientId: client.id,
      config,
      convert,
      body,
      plan,
      prefetched: attempt === 1 ? prefetched : null,
    }),
  );
}

type TReadRow = {
  row: Record<string, unknown> & {
    id: string;
    userId: string | null;
    status: string;
    isFraud: boolean;
    currencyCode: string;
    amount: number;
    occurredAt: string;
    data: Record<string, unknown>;
  };
  version: string;
} & Omit<TPartyRead, "merchantDataHash">;

/** The read of a monitored update: the stored row with its version, user and merchant (no row: unknown id). */
function readSql(params: TSqlParams, clientSql: string, transactionId: string): string {
  // through the row's month (transaction_versioned): by id alone the plan would hold every month partition
  return `SELECT t."row", t."version",
    u."data" AS "userData", u."status" AS "userStatus", u."createdAt" AS "userCreatedAt",
    m."data" AS "merchantData", m."status" AS "merchantStatus", m."createdAt" AS "merchantCreatedAt"
  FROM "transaction_versioned"(${clientSql}, ${params.add(transactionId, "text")}) t
  LEFT JOIN "users" u ON u."clientId" = ${clientSql} AND u."id" = t."userId"
  LEFT JOIN "merchants" m ON m."clientId" = ${clientSql} AND m."id" = t."merchantId"`;
}

/** The read of a monitored update as it travels with the API key read (`read` null: unknown id). */
export type TUpdatePrefetched = { read: TReadRow | null };

/**
 * The read planned for the client the key resolved to last time (withClientRead); null without
 * transactionUpdateMonitoring (the update is the key read and one write statement).
 */
export async function plannedUpdateRead(
  guess: TClientContext,
  body: TTransactionUpdate,
): Promise<{
  build: TKeyedRead["build"];
  result: (row: Record<string, unknown>) => TUpdatePrefetched;
} | null> {
  if (!guess.features.has("transactionUpdateMonitoring")) return null;
  return {
    build: (params, clientSql) => readSql(params, clientSql, body.transactionId),
    result: (row) => ({ read: row.row ? (row as unknown as TReadRow) : null }),
  };
}

/** assessTransaction after the update, on the raw path: read, aggregates, one optimistic write. */
async function rescreenOnce(
  pool: Pool,
  {
    clientId,
    config,
    convert,
    body,
    plan,
    prefetched,
  }: {
    clientId: string;
    config: TScreeningConfig;
    convert: (t: { currencyCode: string; amount: number; timestamp: number }) => TFxConversion;
    body: TTransactionUpdate;
    plan: TUpdatePlan;
    /** The read made with the key read (first attempt only). */
    prefetched: TUpdatePrefetched | null;
  },
): Promise<TTransactionAssessment> {
  let read: TReadRow | null | undefined = prefetched?.read;
  if (!prefetched) {
    const r = new Params();
    const sql = readSql(r, r.add(clientId, "text"), body.transactionId);
    read = (await pool.query<TReadRow>(prepared(sql, r.values))).rows[0];
  }
  if (!read) throw notFound("/transactionId", "Transaction not found");
  const stored = read.row;
  const now = new Date();
  const started = performance.now();

  // The update in memory, as updateTransactionPrisma computes it.
  const data = { ...stored.data, ...plan.patch };
  const card = data.card as { cardFingerprint?: string } | undefined;
  const timestamp = new Date(stored.occurredAt).getTime();
  // the same conversion as on submission, at the rates known now
  const fx = convert({ currencyCode: stored.currencyCode, amount: Number(stored.amount), timestamp });
  const columns: Record<string, [unknown, string]> = {
    status: [plan.status ?? stored.status, "text"],
    isFraud: [body.isFraudulent ?? stored.isFraud, "boolean"],
    accountId: [(data.accountId as string | undefined) ?? null, "text"],
    paymentMethod: [(data.paymentMethod as string | undefined) ?? null, "text"],
    cardFingerprint: [card?.cardFingerprint ?? null, "text"],
    data: [JSON.stringify(data), "jsonb"],
    updatedAt: [now.toISOString(), "timestamptz"],
    baseAmount: [fx.baseAmount === undefined ? null : String(fx.baseAmount), "numeric"],
  };

  // The aggregates (the updated row as a virtual row), then the rules in memory.
  const variables: Record<string, unknown> = { transaction: withBaseAmount({ ...data, id: stored.id }, fx) };
  const user = storedEntity(
    read.userCreatedAt
      ? { data: read.userData, status: read.userStatus, createdAt: read.userCreatedAt }
      : null,
  );
  const merchant = storedMerchant(
    read.merchantCreatedAt
      ? { data: read.merchantData, status: read.merchantStatus, createdAt: read.merchantCreatedAt }
      : null,
  );
  if (user) variables.user = user;
  if (merchant) variables.merchant = merchant;
  const rules = config.rules.get("transaction") ?? [];
  const aggregatePlan = planAggregates(rules, "transaction");
  const virtualRow = {
    ...stored,
    ...Object.fromEntries(Object.entries(columns).map(([k, [v]]) => [k, v])),
    data,
  };
  const values = await computeAggregates(rawTx(pool), {
    clientId,
    subject: "transaction",
    subjectId: stored.id,
    timestamp,
    variables,
    aggregates: aggregatePlan.requests,
    screened: { over: "transaction", row: virtualRow },
  });
  const decided = await decide(pool, {
    clientId,
    subject: "transaction",
    subjectId: stored.id,
    variables,
    rules,
    lists: config.lists,
    values,
    compileErrors: aggregatePlan.compileErrors,
  });
  const answer = assessment(stored.id, decided, now);

  // The write: one statement, all or nothing, only on the version read.
  const q = new Params();
  const write = decidedWrite(q, {
    clientId,
    subject: "transaction",
    subjectId: stored.id,
    decided,
    variables,
    timestamp,
    fx,
    started,
    answer,
    assessedAt: now,
    subscriptions: config.subscriptions,
    // transaction.screened travels with the alerts' webhook rows below
    event: null,
    subjectRow: "columns",
  });
  const qc = q.add(clientId, "text");
  const qid = q.add(stored.id, "text");
  const fields: Array<[string, string]> = [
    ...Object.entries(columns).map(([k, [v, cast]]): [string, string] => [k, q.add(v, cast)]),
    ...write.outcome,
    // the body as sent, kept before the first update changes it (the row's value before this UPDATE)
    ["requestData", `coalesce("requestData", "data")`],
  ];
  const ctes = [
    ...write.ctes,
    `upd AS (UPDATE "transactions" SET ${fields.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
       WHERE "clientId" = ${qc} AND "id" = ${qid} AND "occurredAt" = ${q.add(stored.occurredAt, "timestamptz")}
         AND xmin = ${q.add(read.version, "text")}::xid
       RETURNING "id", "userId")`,
    ...updateSideCtes(q, clientId, body, plan),
  ];
  // alerts, their webhooks, transaction.screened
  ctes.push(
    ...transactionAlertCtes(q, {
      clientId,
      c: qc,
      id: qid,
      transactionId: stored.id,
      userId: stored.userId,
      decisionId: write.decisionId,
      firedActive: decided.firedActive,
      subscriptions: config.subscriptions,
      answer,
      now,
    }),
  );
  // a row changed since the read matched nothing: division by zero aborts every CTE above
  await commitWrite(pool, q, `WITH ${ctes.join(",\n")} ${abortUnlessWritten(["upd"])}`);
  return { ...answer, transactionId: stored.id, status: plan.status ?? stored.status };
}
