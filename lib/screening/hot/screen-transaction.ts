import type { PoolClient } from "pg";
import type { TClientContext } from "@/lib/auth/api-keys";
import { pgPool } from "@/lib/db";
import { computeAggregates } from "@/lib/screening/aggregates";
import {
  assessment,
  bodyHash,
  storedEntity,
  storedMerchant,
  type TRiskAssessment,
} from "@/lib/screening/assessment";
import { screeningConfig, type TScreeningConfig } from "@/lib/screening/hot/config";
import {
  inTransaction,
  isUniqueViolation,
  newId,
  Params,
  rawTx,
  RetryScreening,
} from "@/lib/screening/hot/sql";
import {
  deviceIdentifiers,
  deviceUpsert,
  IdentifierRows,
  upsertMerchantRaw,
  upsertUserRaw,
  webhookCtes,
  webhookRows,
  type TWebhookRows,
} from "@/lib/screening/hot/writes";
import { transactionBaseAmount, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import type { TFxConversion } from "@/lib/fx/rates";
import { evaluateWithLists, liveListSource } from "@/lib/lists/in-list";
import { instrumentCandidates } from "@/lib/screening/infer-instruments";
import { prepareSanctionsScreening, sanctionsWrap } from "@/lib/sanctions/prepare-sanctions-screening";
import { decisionInput, evaluateRules, planAggregates } from "@/lib/screening/run-rules";
import type { TTransactionAssessment } from "@/lib/screening/screen-transaction";
import type { TTransaction } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import type { TUserDevice } from "@/lib/users/schemas";

// POST /v1/transaction on the raw-SQL path (README.md here). Round trips for a transaction that
// refers to stored parties: one read (idempotency), then BEGIN, one write (record, update row,
// identifiers, inferred instruments; returns the stored user and merchant), one read (every
// aggregate), one write (decision, row update, alerts, webhook deliveries and outbox), COMMIT.
// An inline user adds one or two statements, an inline merchant one or two.

type TStoredRow = {
  bodyHash: string;
  status: string;
  riskLevel: string;
  recommendedAction: string;
  assessedAt: Date;
  response: { triggered?: unknown[] } | null;
};

const STORED_SQL = `
  SELECT t."bodyHash", t."status", t."riskLevel", t."recommendedAction", t."assessedAt", d."response"
  FROM "transactions" t LEFT JOIN "decisions" d ON d."id" = t."decisionId"
  WHERE t."clientId" = $1 AND t."id" = $2`;

function storedAnswer(id: string, row: TStoredRow): TTransactionAssessment {
  const triggered = (row.response?.triggered ?? []) as never[];
  return {
    ...assessment(
      id,
      { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered },
      row.assessedAt,
    ),
    transactionId: id,
    status: row.status,
  };
}

export async function screenTransactionHot({
  client,
  body,
}: {
  client: TClientContext;
  body: TTransaction;
}): Promise<TTransactionAssessment> {
  const pool = pgPool();
  const hash = bodyHash(body);
  for (let attempt = 0; ; attempt++) {
    const { rows } = await pool.query<TStoredRow>(STORED_SQL, [client.id, body.id]);
    const existing = rows[0];
    if (existing?.bodyHash === hash) return storedAnswer(body.id, existing);
    const config = await screeningConfig(pool, client);
    const fx = await transactionBaseAmount(client, body);
    try {
      return await inTransaction((db) =>
        screenInTransaction(db, { clientId: client.id, config, fx, body, hash, replace: !!existing }),
      );
    } catch (err) {
      // Two first submissions of the same id (or of an inline user or merchant) raced; read again.
      if (attempt < 2 && (isUniqueViolation(err) || err instanceof RetryScreening)) continue;
      throw err;
    }
  }
}

type TStoredParties = {
  userData: unknown;
  userStatus: string | null;
  userCreatedAt: Date | null;
  merchantData: unknown;
  merchantStatus: string | null;
  merchantCreatedAt: Date | null;
};

async function screenInTransaction(
  db: PoolClient,
  {
    clientId,
    config,
    fx,
    body,
    hash,
    replace,
  }: {
    clientId: string;
    config: TScreeningConfig;
    fx: TFxConversion;
    body: TTransaction;
    hash: string;
    replace: boolean;
  },
): Promise<TTransactionAssessment> {
  const now = new Date();
  const userId = body.userId ?? body.user!.id;
  const merchantId = body.merchantId ?? body.merchant?.id ?? null;
  const identifiers = new IdentifierRows();

  // Inline parties first (their own statements), in the order of the Prisma path.
  const devices: Array<{ userId: string; device: TUserDevice; source: string }> = [];
  if (body.user) {
    await upsertUserRaw(db, { clientId, user: body.user, source: "transaction", identifiers });
    if (body.user.userDevice)
      devices.push({ userId: body.user.id, device: body.user.userDevice, source: "transaction" });
  }
  if (body.merchant) await upsertMerchantRaw(db, { clientId, merchant: body.merchant });
  if (body.userDevice) devices.push({ userId, device: body.userDevice, source: "device" });
  // One device twice in one statement is not allowed: the earlier sighting gets its own statement.
  const sameDevice = devices.length === 2 && devices[0]!.device.id === devices[1]!.device.id;
  if (sameDevice) {
    const p = new Params();
    await db.query(deviceUpsert(p, { clientId, ...devices[0]!, seenAt: now }), p.values);
  }
  for (const d of devices) identifiers.add(d.userId, deviceIdentifiers(d.device), d.source);

  // Write 1: the record and everything it links, returning the stored user and merchant.
  const p = new Params();
  const c = p.add(clientId, "text");
  const id = p.add(body.id, "text");
  const occurredAt = p.add(new Date(body.timestamp), "timestamptz");
  const at = p.add(now, "timestamptz");
  const columns: Array<[string, string]> = [
    ["userId", p.add(userId, "text")],
    ["merchantId", p.add(merchantId, "text")],
    ["accountId", p.add(body.accountId ?? null, "text")],
    ["userDeviceId", p.add(body.userDeviceId ?? body.userDevice?.id ?? null, "text")],
    ["cardFingerprint", p.add(body.card?.cardFingerprint ?? null, "text")],
    ["status", p.add(body.status, "text")],
    ["direction", p.add(body.direction ?? null, "text")],
    ["paymentMethod", p.add(body.paymentMethod ?? null, "text")],
    ["currencyCode", p.add(body.currencyCode, "text")],
    ["amount", p.add(String(body.amount), "numeric")],
    ["baseAmount", p.add(fx.baseAmount === undefined ? null : String(fx.baseAmount), "numeric")],
    ["occurredAt", occurredAt],
    ["data", p.json(body)],
    ["bodyHash", p.add(hash, "text")],
    ["riskLevel", `'n/a'`],
    ["recommendedAction", `'ALLOW'`],
    ["assessedAt", at],
    ["updatedAt", at],
  ];
  const ctes: string[] = [
    replace
      ? `t AS (UPDATE "transactions" SET ${columns.map(([k, v]) => `"${k}" = ${v}`).join(", ")}, "decisionId" = NULL
           WHERE "clientId" = ${c} AND "id" = ${id})`
      : `t AS (INSERT INTO "transactions" ("clientId", "id", ${columns.map(([k]) => `"${k}"`).join(", ")})
           VALUES (${c}, ${id}, ${columns.map(([, v]) => v).join(", ")}))`,
    `tu AS (INSERT INTO "transaction_updates" ("id", "clientId", "transactionId", "status", "type", "source", "occurredAt")
       VALUES (${p.add(newId(), "text")}, ${c}, ${id}, ${p.add(body.status, "text")}, '${replace ? "resubmitted" : "submitted"}', 'api', ${occurredAt}))`,
  ];
  devices.slice(sameDevice ? 1 : 0).forEach((d, i) => {
    ctes.push(`dv${i} AS (${deviceUpsert(p, { clientId, ...d, seenAt: now })})`);
  });
  identifiers.add(userId, identifiersFromPaymentMethods(body), "transaction");
  // Recipients are users of the client too: their payment methods are theirs for attribute blocking.
  for (const recipient of body.recipients ?? (body.recipient ? [body.recipient] : [])) {
    if (recipient.id)
      identifiers.add(recipient.id, identifiersFromPaymentMethods(recipient), "transaction-recipient");
  }
  const identifierInsert = identifiers.cte(p, clientId);
  if (identifierInsert) ctes.push(`ui AS (${identifierInsert})`);
  const candidates = instrumentCandidates(body);
  if (candidates.length) {
    const values = p.rows(
      candidates.map((cand) => [
        [cand.id, "text"],
        [cand.method, "text"],
        [JSON.stringify({ id: cand.id, userId, method: cand.method, [cand.method]: cand.data }), "jsonb"],
      ]),
    );
    ctes.push(`pi AS (INSERT INTO "payment_instruments" ("clientId", "id", "userId", "status", "method", "data",
         "inferred", "riskLevel", "recommendedAction", "assessedAt", "occurredAt")
       SELECT ${c}, v."id", ${p.add(userId, "text")}, 'linked', v."method", v."data", true, 'n/a', 'ALLOW', ${at}, ${occurredAt}
       FROM (VALUES ${values}) AS v("id", "method", "data") ON CONFLICT DO NOTHING)`);
  }
  const parties = await db.query<TStoredParties>(
    `WITH ${ctes.join(",\n")}
     SELECT u."data" AS "userData", u."status" AS "userStatus", u."createdAt" AS "userCreatedAt",
            m."data" AS "merchantData", m."status" AS "merchantStatus", m."createdAt" AS "merchantCreatedAt"
     FROM (SELECT 1) one
     LEFT JOIN "users" u ON u."clientId" = ${c} AND u."id" = ${p.add(userId, "text")}
     LEFT JOIN "merchants" m ON m."clientId" = ${c} AND m."id" = ${p.add(merchantId, "text")}`,
    p.values,
  );
  const stored = parties.rows[0]!;

  // The rules, in memory; the aggregates in one statement (the record above counts itself).
  const started = performance.now();
  const variables: Record<string, unknown> = { transaction: withBaseAmount(body, fx) };
  const user = storedEntity(
    stored.userCreatedAt
      ? { data: stored.userData, status: stored.userStatus, createdAt: stored.userCreatedAt }
      : null,
  );
  const merchant = storedMerchant(
    stored.merchantCreatedAt
      ? { data: stored.merchantData, status: stored.merchantStatus, createdAt: stored.merchantCreatedAt }
      : null,
  );
  if (user) variables.user = user;
  if (merchant) variables.merchant = merchant;
  const rules = config.rules.get("transaction") ?? [];
  const plan = planAggregates(rules, "transaction");
  const values = await computeAggregates(rawTx(db), {
    clientId,
    subject: "transaction",
    subjectId: body.id,
    timestamp: body.timestamp,
    variables,
    aggregates: plan.requests,
  });
  // one statement more only when a rule calls sanctionsScore (lists' version, the user's false matches)
  const sanctions = await prepareSanctionsScreening(rawTx(db), {
    clientId,
    subject: "transaction",
    subjectId: body.id,
    variables,
    conditions: rules.map((r) => r.condition),
  });
  const { result, lookups } = evaluateWithLists(liveListSource(config.lists), () =>
    evaluateRules(rules, "transaction", variables, values, plan.compileErrors, sanctionsWrap(sanctions)),
  );
  const answer: TRiskAssessment = assessment(body.id, result, now);

  // Write 2: decision, row, alerts and the webhooks of what happened.
  const decisionId = newId();
  const q = new Params();
  const qc = q.add(clientId, "text");
  const qid = q.add(body.id, "text");
  const { riskLevel, recommendedAction, triggered, evaluated, aggregatesByVersion } = result;
  const write2: string[] = [
    `d AS (INSERT INTO "decisions" ("id", "clientId", "subjectType", "subjectId", "riskLevel", "recommendedAction",
         "evaluated", "aggregates", "input", "response", "durationMs")
       VALUES (${q.add(decisionId, "text")}, ${qc}, 'transaction', ${qid}, ${q.add(riskLevel, "text")},
         ${q.add(recommendedAction, "text")}, ${q.json(evaluated)}, ${q.json(aggregatesByVersion)},
         ${q.json(decisionInput({ variables, aggregates: aggregatesByVersion, timestamp: body.timestamp, fx, lookups }))},
         ${q.json({ riskLevel, recommendedAction, triggered })}, ${q.add(performance.now() - started, "float8")}))`,
    `t AS (UPDATE "transactions" SET "riskLevel" = ${q.add(answer.riskLevel, "text")},
         "recommendedAction" = ${q.add(answer.recommendedAction, "text")}, "decisionId" = ${q.add(decisionId, "text")},
         "assessedAt" = ${q.add(now, "timestamptz")}
       WHERE "clientId" = ${qc} AND "id" = ${qid})`,
  ];
  const webhooks: TWebhookRows = { outbox: [], deliveries: [] };
  const active = result.firedActive.filter((f) => f.status === "active");
  if (active.length) {
    const values = q.rows(
      active.map((f) => [
        [newId(), "text"],
        [f.ruleRef, "text"],
        [f.id, "text"],
        [f.versionId, "text"],
        [f.name, "text"],
        [f.level, "text"],
        [f.reason, "text"],
        [f.recommendedAction, "text"],
      ]),
    );
    write2.push(`a AS (INSERT INTO "alerts" ("id", "clientId", "transactionId", "userId", "ruleRef", "ruleId",
         "ruleVersionId", "ruleName", "level", "reason", "recommendedAction", "decisionId", "createdAt")
       SELECT v."id", ${qc}, ${qid}, ${q.add(userId, "text")}, v."ruleRef", v."ruleId", v."versionId", v."name",
         v."level", v."reason", v."action", ${q.add(decisionId, "text")}, ${q.add(now, "timestamptz")}
       FROM (VALUES ${values}) AS v("id", "ruleRef", "ruleId", "versionId", "name", "level", "reason", "action")
       ON CONFLICT ("clientId", "transactionId", "ruleRef") DO NOTHING RETURNING "ruleRef" AS "tag")`);
    // one alert per (transaction, rule): a rule firing again on a resubmission opens and emits nothing
    for (const f of active)
      webhookRows(webhooks, config.subscriptions, {
        event: "alert.created",
        tag: f.ruleRef,
        payload: {
          transactionId: body.id,
          ruleId: f.id,
          ruleName: f.name,
          level: f.level,
          reason: f.reason,
          recommendedAction: f.recommendedAction,
          alertedAt: now.getTime(),
        },
      });
  }
  webhookRows(webhooks, config.subscriptions, { event: "transaction.screened", payload: { ...answer } });
  write2.push(...webhookCtes(q, clientId, webhooks, active.length ? "a" : null, new Date()));
  await db.query(`WITH ${write2.join(",\n")} SELECT 1`, q.values);
  return { ...answer, transactionId: body.id, status: body.status };
}
