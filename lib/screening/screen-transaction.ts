import type { Pool } from "pg";
import type { TKeyedRead } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool, type Tx } from "@/lib/db";
import { aggregateTemplate, type TAggregateInput, type TAggregateValue } from "@/lib/screening/aggregates";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import { assessment, bodyHash, type TRiskAssessment } from "@/lib/screening/assessment";
import {
  screeningConfig,
  type TScreeningConfig,
  type TScreeningRequest,
} from "@/lib/screening/screening-config";
import {
  inlinePartyCtes,
  merchantHashColumn,
  partyVariables,
  type TInlineParties,
  type TPartyRead,
} from "@/lib/screening/sql/inline-parties";
import { decisionCte } from "@/lib/screening/sql/decision-write";
import { abortUnlessWritten, commitWrite, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { newId, Params, prepared, TemplateParams } from "@/lib/screening/sql/statements";
import { deviceIdentifiers, deviceUpsert } from "@/lib/screening/sql/device-upsert";
import { IdentifierRows } from "@/lib/screening/sql/identifier-rows";
import { transactionAlertCtes } from "@/lib/screening/sql/webhook-rows";
import { decide } from "@/lib/screening/decide";
import { transactionBaseAmount, withBaseAmount } from "@/lib/fx/transaction-base-amount";
import type { TFxConversion } from "@/lib/fx/rates";
import { instrumentCandidates } from "@/lib/screening/infer-instruments";
import { decisionInput, planAggregates } from "@/lib/screening/run-rules";
import type { TTransaction } from "@/lib/transactions/schemas";
import { identifiersFromPaymentMethods, identifiersOfUser } from "@/lib/users/index-identifiers";
import type { TUserDevice } from "@/lib/users/schemas";
import { timeAggregateRead } from "@/lib/ops/metrics";

// POST /v1/transaction in raw SQL (README.md here). For a transaction that refers to stored
// parties: ONE read statement (idempotency, stored user and merchant, every aggregate, with the
// screened record as a virtual row), the rules in memory, ONE write statement (record, update row,
// devices, identifiers, inferred instruments, decision, alerts, webhook deliveries and outbox). One
// statement is atomic by itself, so there is no BEGIN/COMMIT. An inline user or merchant is read with
// the rest, merged in memory and upserted by CTEs of the write (sql/inline-parties.ts).
// The route sends the read within the API key's statement (withClientRead, plannedTransactionRead).

export type TTransactionAssessment = TRiskAssessment & { transactionId: string; status: string };

function response(row: { id: string; status: string }, result: TRiskAssessment): TTransactionAssessment {
  return { ...result, transactionId: row.id, status: row.status };
}

/** The stored assessment of a transaction, as first answered (GET and idempotent resubmission). */
export async function storedTransactionAssessment(
  db: Tx,
  { clientId, id }: { clientId: string; id: string },
): Promise<TTransactionAssessment | null> {
  // one statement: the row from its month (transaction_stored) and its decision's response (decision_response:
  // planned once per session, it probes each month of "decisions"); by id alone each would be planned over
  // every month partition on every call
  const rows = await db.$queryRaw<
    Array<{
      id: string;
      status: string;
      riskLevel: string;
      recommendedAction: string;
      assessedAt: Date;
      response: unknown;
    }>
  >`SELECT t."id", t."status", t."riskLevel", t."recommendedAction", t."assessedAt",
      "decision_response"(t."decisionId") AS "response"
    FROM "transaction_stored"(${clientId}, ${id}) t`;
  const row = rows[0];
  if (!row) return null;
  const triggered = ((row.response as { triggered?: unknown[] } | null)?.triggered ?? []) as never[];
  return response(
    row,
    assessment(
      row.id,
      { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered },
      row.assessedAt,
    ),
  );
}

type TReadRow = {
  bodyHash: string | null;
  status: string | null;
  riskLevel: string | null;
  recommendedAction: string | null;
  assessedAt: Date | null;
  /** the stored row's time: its replacement names the row's month partition */
  storedOccurredAt: Date | null;
  response: { triggered?: unknown[] } | null;
} & TPartyRead &
  Record<string, unknown>;

function storedAnswer(id: string, row: TReadRow): TTransactionAssessment {
  const triggered = (row.response?.triggered ?? []) as never[];
  return {
    ...assessment(
      id,
      { riskLevel: row.riskLevel!, recommendedAction: row.recommendedAction!, triggered },
      row.assessedAt!,
    ),
    transactionId: id,
    status: row.status!,
  };
}

export async function screenTransaction({
  client,
  body,
  prefetched,
}: TScreeningRequest<TTransaction, TPrefetchedRead>): Promise<TTransactionAssessment> {
  const pool = pgPool();
  // a prefetched read was planned with this body for this client at these versions: its plan holds
  // the same hash, configuration and conversion
  const hash = prefetched?.plan.hash ?? bodyHash(body);
  // both from per-process caches keyed by the versions the key read returned (no query when warm)
  const config = prefetched?.plan.config ?? (await screeningConfig(pool, client));
  const fx = prefetched?.plan.fx ?? (await transactionBaseAmount(client, body));
  // Two first submissions of the same id (or of an inline user or merchant) raced, or a replaced
  // record or an inline party changed between the read and the write: read again. The prefetched
  // read serves the first attempt only.
  return retryOnConflict((attempt) =>
    attempt === 1 && prefetched
      ? screenOnce(pool, prefetched.plan, prefetched)
      : screenOnce(pool, planScreening(client.id, config, fx, body, hash)),
  );
}

/** The inline user's device is also the transaction's device (same id): one device, seen twice. */
function userDeviceIsTransactionDevice(body: TTransaction): boolean {
  return !!body.user?.userDevice && !!body.userDevice && body.user.userDevice.id === body.userDevice.id;
}

/**
 * The column values of the record as the write stores them: the write's INSERT / UPDATE and the
 * read's virtual row (aggregates) are built from this one object, so they cannot disagree.
 */
function recordColumns(
  clientId: string,
  body: TTransaction,
  fx: TFxConversion,
  hash: string,
  now: Date,
): Record<string, [unknown, string]> & {
  occurredAt: [string, string];
  userId: [string, string];
  merchantId: [string | null, string];
} {
  return {
    clientId: [clientId, "text"],
    id: [body.id, "text"],
    userId: [body.userId ?? body.user!.id, "text"],
    merchantId: [body.merchantId ?? body.merchant?.id ?? null, "text"],
    accountId: [body.accountId ?? null, "text"],
    userDeviceId: [body.userDeviceId ?? body.userDevice?.id ?? null, "text"],
    cardFingerprint: [body.card?.cardFingerprint ?? null, "text"],
    status: [body.status, "text"],
    direction: [body.direction ?? null, "text"],
    paymentMethod: [body.paymentMethod ?? null, "text"],
    currencyCode: [body.currencyCode, "text"],
    amount: [String(body.amount), "numeric"],
    baseAmount: [fx.baseAmount === undefined ? null : String(fx.baseAmount), "numeric"],
    occurredAt: [new Date(body.timestamp).toISOString(), "timestamptz"],
    data: [JSON.stringify(body), "jsonb"],
    bodyHash: [hash, "text"],
    assessedAt: [now.toISOString(), "timestamptz"],
    updatedAt: [now.toISOString(), "timestamptz"],
  };
}

type TPlan = {
  clientId: string;
  config: TScreeningConfig;
  fx: TFxConversion;
  body: TTransaction;
  hash: string;
  now: Date;
  columns: ReturnType<typeof recordColumns>;
  rules: readonly TLoadedRule[];
  plan: ReturnType<typeof planAggregates>;
  variables: Record<string, unknown>;
  started: number;
};

/** The transaction rules of a configuration and the aggregates they need: one per configuration. */
type TRuleSet = {
  rules: readonly TLoadedRule[];
  plan: ReturnType<typeof planAggregates>;
  /** Read statements by shape (readTemplate). */
  reads: Map<string, TReadTemplate>;
};

const ruleSets = new WeakMap<TScreeningConfig, TRuleSet>();

function ruleSet(config: TScreeningConfig): TRuleSet {
  let set = ruleSets.get(config);
  if (!set) {
    const rules = config.rules.get("transaction") ?? [];
    set = { rules, plan: planAggregates(rules, "transaction"), reads: new Map() };
    ruleSets.set(config, set);
  }
  return set;
}

function planScreening(
  clientId: string,
  config: TScreeningConfig,
  fx: TFxConversion,
  body: TTransaction,
  hash: string,
): TPlan {
  const now = new Date();
  const { rules, plan } = ruleSet(config);
  return {
    clientId,
    config,
    fx,
    body,
    hash,
    now,
    columns: recordColumns(clientId, body, fx, hash, now),
    rules,
    plan,
    variables: { transaction: withBaseAmount(body, fx) },
    started: performance.now(),
  };
}

/** What the values of a read are computed from (its text depends on the shape only). */
type TReadInput = TAggregateInput & { userId: string; merchantId: string | null };

type TReadTemplate = {
  sql: string;
  params: TemplateParams<TReadInput>;
  aggregates: (row: Record<string, unknown>) => Map<string, TAggregateValue>;
};

/**
 * The read statement: idempotency, stored user and merchant, every aggregate (the record as a
 * virtual row), every tenant predicate on `clientSql` (null: the client id is its first parameter).
 * Its text depends only on the configuration's rules, on where it sits in the caller's statement
 * (`offset` parameters before it, `clientSql`) and on an inline merchant: built once per shape.
 */
function readTemplate(
  plan: TPlan,
  { offset, clientSql }: { offset: number; clientSql: string | null },
): TReadTemplate {
  const { reads } = ruleSet(plan.config);
  const inlineMerchant = merchantHashColumn(plan.body);
  const key = `${offset}\u0000${clientSql ?? ""}\u0000${inlineMerchant}`;
  let template = reads.get(key);
  if (template) return template;
  const params = new TemplateParams<TReadInput>(offset);
  const c = clientSql ?? params.input((i) => i.clientId, "text");
  const aggregates = aggregateTemplate(params, {
    subject: "transaction",
    aggregates: plan.plan.requests,
    screenedOver: "transaction",
    clientSql: c,
  });
  const sql = `${aggregates.ctes.length ? `WITH ${aggregates.ctes.join(",\n")} ` : ""}
     SELECT st."bodyHash", st."status", st."riskLevel", st."recommendedAction", st."assessedAt",
       st."occurredAt" AS "storedOccurredAt", "decision_response"(st."decisionId") AS "response",
       u."data" AS "userData", u."status" AS "userStatus", u."createdAt" AS "userCreatedAt",
       m."data" AS "merchantData", m."status" AS "merchantStatus", m."createdAt" AS "merchantCreatedAt"
       ${inlineMerchant}${aggregates.columns.map((col, i) => `, ${col} AS "a${i}"`).join("")}
     FROM (SELECT 1) one
     LEFT JOIN "transaction_stored"(${c}, ${params.input((i) => i.subjectId, "text")}) st ON true
     LEFT JOIN "users" u ON u."clientId" = ${c} AND u."id" = ${params.input((i) => i.userId, "text")}
     LEFT JOIN "merchants" m ON m."clientId" = ${c} AND m."id" = ${params.input((i) => i.merchantId, "text")}`;
  template = { sql, params, aggregates: aggregates.read };
  reads.set(key, template);
  return template;
}

/** The read of this screening, its values appended to `values`: see readTemplate. */
function readStatement(
  plan: TPlan,
  values: unknown[],
  clientSql: string | null,
): { sql: string; aggregates: (row: Record<string, unknown>) => Map<string, TAggregateValue> } {
  const template = readTemplate(plan, { offset: values.length, clientSql });
  const { body, columns } = plan;
  const screenedRow: Record<string, unknown> = {};
  for (const [k, [v]] of Object.entries(columns)) screenedRow[k] = k === "data" ? body : v;
  template.params.fill(values, {
    clientId: plan.clientId,
    subjectId: body.id,
    timestamp: body.timestamp,
    variables: plan.variables,
    screenedRow,
    userId: columns.userId[0],
    merchantId: columns.merchantId[0],
  });
  return template;
}

/** A screening's read planned to travel with the API key read (see withClientRead). */
export type TPrefetchedRead = {
  plan: TPlan;
  row: TReadRow;
  read: (row: Record<string, unknown>) => Map<string, TAggregateValue>;
};

/**
 * The read of this screening, planned for the client the key resolved to last time, to run in the
 * statement of the key read.
 */
export async function plannedTransactionRead(
  guess: TClientContext,
  body: TTransaction,
): Promise<{ build: TKeyedRead["build"]; result: (row: Record<string, unknown>) => TPrefetchedRead } | null> {
  const config = await screeningConfig(pgPool(), guess);
  const fx = await transactionBaseAmount(guess, body);
  const plan = planScreening(guess.id, config, fx, body, bodyHash(body));
  let read: ((row: Record<string, unknown>) => Map<string, TAggregateValue>) | undefined;
  return {
    build: (params, clientSql) => {
      const statement = readStatement(plan, params.values, clientSql);
      read = statement.aggregates;
      return statement.sql;
    },
    result: (row) => ({ plan, row: row as TReadRow, read: read! }),
  };
}

async function screenOnce(
  db: Pool,
  plan: TPlan,
  prefetched?: TPrefetchedRead,
): Promise<TTransactionAssessment> {
  const { clientId, config, fx, body, hash, now, columns, rules, variables, started } = plan;
  const userId = columns.userId[0];
  let stored: TReadRow;
  let aggregates: (row: Record<string, unknown>) => Map<string, TAggregateValue>;
  if (prefetched) {
    stored = prefetched.row;
    aggregates = prefetched.read;
  } else {
    const values: unknown[] = [];
    const statement = readStatement(plan, values, null);
    stored = (await timeAggregateRead(() => db.query<TReadRow>(prepared(statement.sql, values)))).rows[0]!;
    aggregates = statement.aggregates;
  }
  // an identical resubmission answers what was stored
  if (stored.bodyHash === hash) return storedAnswer(body.id, stored);
  const replacedHash = stored.bodyHash;

  // The rules, in memory (sanctions: one statement more only when a rule calls sanctionsScore). An
  // inline party is seen as its upsert in the write will leave it.
  const inline: TInlineParties = { user: body.user, merchant: body.merchant };
  const { user, merchant } = partyVariables(stored, inline);
  if (user) variables.user = user;
  if (merchant) variables.merchant = merchant;
  const values = aggregates(stored);
  const { lookups, links, ...result } = await decide(db, {
    clientId,
    subject: "transaction",
    subjectId: body.id,
    variables,
    rules,
    lists: config.lists,
    values,
    compileErrors: plan.plan.compileErrors,
  });
  const answer: TRiskAssessment = assessment(body.id, result, now);
  const durationMs = performance.now() - started;

  // The write: one statement, all or nothing.
  const decisionId = newId();
  const p = new Params();
  const c = p.add(clientId, "text");
  const id = p.add(body.id, "text");
  const occurredAt = p.add(columns.occurredAt[0], "timestamptz");
  const record: Array<[string, string]> = Object.entries(columns)
    .filter(([k]) => k !== "clientId" && k !== "id")
    .map(([k, [v, cast]]) => [k, k === "occurredAt" ? occurredAt : p.add(v, cast)]);
  record.push(
    ["riskLevel", p.add(answer.riskLevel, "text")],
    ["recommendedAction", p.add(answer.recommendedAction, "text")],
    ["decisionId", p.add(decisionId, "text")],
  );
  // the inline parties' upserts, guarded (sql/inline-parties.ts)
  // one statement cannot upsert one device twice: a device that is both the inline user's and the
  // transaction's is upserted once, below, as the two sightings in a row leave it
  const oneDevice = userDeviceIsTransactionDevice(body);
  const parties = inlinePartyCtes(p, {
    clientId,
    inline,
    source: "transaction",
    read: stored,
    now,
    withUserDevice: !oneDevice,
  });
  const ctes: string[] = [
    ...parties.ctes,
    replacedHash === null
      ? // a concurrent first submission of this id makes this INSERT fail (unique key): read again
        `t AS (INSERT INTO "transactions" ("clientId", "id", ${record.map(([k]) => `"${k}"`).join(", ")})
           VALUES (${c}, ${id}, ${record.map(([, v]) => v).join(", ")}) RETURNING 1)`
      : // replace, guarded by the body read: changed since, the statement fails (below) and reads again
        `t AS (UPDATE "transactions" SET ${record.map(([k, v]) => `"${k}" = ${v}`).join(", ")}, "requestData" = NULL
           WHERE "clientId" = ${c} AND "id" = ${id} AND "occurredAt" = ${p.add(stored.storedOccurredAt, "timestamptz")}
             AND "bodyHash" = ${p.add(replacedHash, "text")} RETURNING 1)`,
    `tu AS (INSERT INTO "transaction_updates" ("id", "clientId", "transactionId", "status", "type", "source", "occurredAt")
       VALUES (${p.add(newId(), "text")}, ${c}, ${id}, ${p.add(body.status, "text")}, '${replacedHash === null ? "submitted" : "resubmitted"}', 'api', ${occurredAt}))`,
    decisionCte(p, {
      name: "d",
      did: p.add(decisionId, "text"),
      c,
      subject: "transaction",
      id,
      result,
      input: decisionInput({
        variables,
        aggregates: result.aggregatesByVersion,
        timestamp: body.timestamp,
        fx,
        lookups,
        links,
      }),
      durationMs,
    }),
  ];

  // Devices, identifiers (first source wins: the user's, its device's, the transaction's device's, the
  // transaction's payment methods, its recipients'), inferred instruments.
  const identifiers = new IdentifierRows();
  if (body.user) identifiers.add(body.user.id, identifiersOfUser(body.user), "transaction");
  const devices: Array<{ userId: string; device: TUserDevice; source: string }> = [];
  if (body.user?.userDevice)
    devices.push({ userId: body.user.id, device: body.user.userDevice, source: "transaction" });
  if (body.userDevice) devices.push({ userId, device: body.userDevice, source: "device" });
  for (const dv of devices) identifiers.add(dv.userId, deviceIdentifiers(dv.device), dv.source);
  // the inline user's device is upserted with the user (userUpsertCtes), unless it is also the
  // transaction's device; its identifiers stay in this insert too (same source, first one wins)
  if (body.userDevice)
    ctes.push(
      `dv0 AS (${deviceUpsert(p, {
        clientId,
        userId,
        device: body.userDevice,
        seenAt: now,
        earlier: oneDevice ? body.user!.userDevice : undefined,
      })})`,
    );
  identifiers.add(userId, identifiersFromPaymentMethods(body), "transaction");
  // Recipients are users of the client too: their payment methods are theirs for attribute blocking.
  for (const recipient of body.recipients ?? (body.recipient ? [body.recipient] : [])) {
    if (recipient.id)
      identifiers.add(recipient.id, identifiersFromPaymentMethods(recipient), "transaction-recipient");
  }
  const identifierInsert = identifiers.cte(p, clientId);
  if (identifierInsert) ctes.push(`ti AS (${identifierInsert})`);
  const uses = identifiers.usesCte(p, clientId, userId, columns.occurredAt[0]);
  if (uses) ctes.push(`tx_uses AS (${uses})`);
  const candidates = instrumentCandidates(body);
  if (candidates.length) {
    const rowsSql = p.rows(
      candidates.map((cand) => [
        [cand.id, "text"],
        [cand.method, "text"],
        [JSON.stringify({ id: cand.id, userId, method: cand.method, [cand.method]: cand.data }), "jsonb"],
      ]),
    );
    ctes.push(`pi AS (INSERT INTO "payment_instruments" ("clientId", "id", "userId", "status", "method", "data",
         "inferred", "riskLevel", "recommendedAction", "assessedAt", "occurredAt")
       SELECT ${c}, v."id", ${p.add(userId, "text")}, 'linked', v."method", v."data", true, 'n/a', 'ALLOW', ${p.add(now, "timestamptz")}, ${occurredAt}
       FROM (VALUES ${rowsSql}) AS v("id", "method", "data") ON CONFLICT DO NOTHING)`);
  }

  // Alerts (the case trigger places each new one; one per transaction and rule: a rule firing again
  // on a resubmission opens and emits nothing) and the webhooks of what really happened.
  ctes.push(
    ...transactionAlertCtes(p, {
      clientId,
      c,
      id,
      transactionId: body.id,
      userId,
      decisionId,
      firedActive: result.firedActive,
      subscriptions: config.subscriptions,
      answer,
      now,
    }),
  );
  // No row written by `t` (a replace whose guard failed) or by an inline party's upsert divides by
  // zero: the statement fails as a whole (nothing of it is stored) with 22012, and the caller reads again.
  await commitWrite(db, p, `WITH ${ctes.join(",\n")} ${abortUnlessWritten(["t", ...parties.written])}`, {
    named: true,
  });
  return { ...answer, transactionId: body.id, status: body.status };
}
