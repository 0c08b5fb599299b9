import type { Pool } from "pg";
import type { TClientContext, TKeyedRead } from "@/lib/auth/api-keys";
import { pgPool } from "@/lib/db";
import { canonicalJson, keepFirstTimestamp } from "@/lib/merchants/upsert-merchant";
import type { TMerchant } from "@/lib/merchants/schemas";
import {
  sanctionsStateColumns,
  screenedUserId,
  type TSanctionsState,
} from "@/lib/sanctions/prepare-sanctions-screening";
import { usesSanctions } from "@/lib/sanctions/score-context";
import { assessment, storedEntity, storedMerchant, type TRiskAssessment } from "@/lib/screening/assessment";
import { screeningConfig, type THotScreening, type TScreeningConfig } from "@/lib/screening/hot/config";
import { decide } from "@/lib/screening/hot/decide";
import { decisionWrite } from "@/lib/screening/hot/decision-write";
import { abortUnlessWritten, retryOnConflict } from "@/lib/screening/hot/guarded-write";
import { newId, Params } from "@/lib/screening/hot/sql";
import {
  readSubjectWithAggregates,
  subjectReadStatement,
  type TSubjectRead,
  type TSubjectReadSpec,
} from "@/lib/screening/hot/subject-read";
import { deviceIdentifiers, deviceUpsert, IdentifierRows } from "@/lib/screening/hot/writes";
import { decisionInput, planAggregates } from "@/lib/screening/run-rules";
import { identifiersOfUser, normalizeIdentifier } from "@/lib/users/index-identifiers";
import { toStoredStatus, type TUser } from "@/lib/users/schemas";

// POST /v1/user/onboard and POST /v1/merchantRequest on the raw-SQL path (README.md here, "Other
// screenings"): ONE read (the stored user or merchant and every aggregate), the rules in memory, ONE
// write statement (the upsert with its side rows, the decision, the row's outcome, the webhook rows).
// Same rows as upsertUser / upsertMerchant + runRules + emitWebhook (screenUserPrisma,
// screenMerchantPrisma; tests/integration/party-screening-equivalence.test.ts).
//
// Without a transaction around the read and the write, the write is optimistic: it inserts a new row
// with a plain INSERT (a concurrent creation is a unique violation) or updates the existing one only
// while it still holds what the evaluation used (the user's status; the merchant's body and status),
// and otherwise aborts the whole statement (a division by zero in its last SELECT). Either way nothing
// is written and the screening starts again from the read.

/** A parameter added on first use (a parameter the SQL never references has no type and fails). */
function once(add: () => string): () => string {
  let placeholder: string | undefined;
  return () => (placeholder ??= add());
}

/** A request body as the Prisma path reads it back from its jsonb column. */
export function asStored<T>(value: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** What a user or merchant screening reads: its table, the stored columns, its CEL variables. */
type TPartyShape<TStored> = {
  subject: "user" | "merchant";
  subjectId: string;
  timestamp: number;
  table: string;
  /** SELECT list over alias `s`; must include "createdAt" (epoch ms). */
  columns: string;
  variablesOf: (stored: TStored | null) => Record<string, unknown>;
  /** Top-level fields of the subject variable that come from the stored row. */
  storedFields: readonly string[];
};

/** The read of a user or merchant screening, as it travels with the API key read (withClientRead). */
export type TPartyPrefetched = {
  /** What the read was planned with (the rules of the same configuration: sameClientState). */
  planned: ReturnType<typeof partyRead>;
  read: TSubjectRead<Record<string, unknown>>;
};

/**
 * The ONE read of a user or merchant screening: the stored row (`columns` of `table`, no row → null),
 * every aggregate, and, when a rule calls sanctionsScore, the sanctions lists' version and the user's
 * false matches (prepareSanctionsScreening's read).
 */
function partyRead<TStored extends { createdAt: number }>(
  config: TScreeningConfig,
  clientId: string,
  { subject, subjectId, timestamp, table, columns, variablesOf, storedFields }: TPartyShape<TStored>,
) {
  const rules = config.rules.get(subject) ?? [];
  const plan = planAggregates(rules, subject);
  const withSanctions = rules.some((r) => usesSanctions(r.condition));
  // the user whose false matches count (the subject itself for a user; stored fields do not change it)
  const userId = screenedUserId(subject, subjectId, variablesOf(null)) ?? null;
  type TRead = Record<string, unknown> & { createdAt: number | null } & Partial<TSanctionsState>;
  const spec: TSubjectReadSpec<TRead> = {
    clientId,
    subject,
    subjectId,
    timestamp,
    requests: plan.requests,
    stored: (p, c) =>
      `SELECT ${columns}${withSanctions ? `, ${sanctionsStateColumns(c, p.add(userId, "text"))}` : ""}
        FROM (SELECT 1) one LEFT JOIN ${table} s ON s."clientId" = ${c} AND s."id" = ${p.add(subjectId, "text")}`,
    variables: (row) => variablesOf(row?.createdAt == null ? null : (row as unknown as TStored)),
    dependsOnStored: ({ spec }) => storedFields.includes(spec.groupBy.split(".")[0]!),
  };
  return { rules, plan, withSanctions, spec };
}

/** The read planned for the client the key resolved to last time (withClientRead); null: read alone. */
async function plannedPartyRead<TStored extends { createdAt: number }>(
  guess: TClientContext,
  shape: TPartyShape<TStored>,
): Promise<{
  build: TKeyedRead["build"];
  result: (row: Record<string, unknown>) => TPartyPrefetched;
} | null> {
  const planned = partyRead(await screeningConfig(pgPool(), guess), guess.id, shape);
  const { spec } = planned;
  // a group value from the stored row: the row is read first, by the screening itself
  if (spec.requests.some(spec.dependsOnStored)) return null;
  let statement: ReturnType<typeof subjectReadStatement<Record<string, unknown>>> = null;
  return {
    build: (params, clientSql) => {
      statement = subjectReadStatement(spec, params, clientSql);
      return statement!.sql;
    },
    result: (row) => ({ planned, read: statement!.result(row) }),
  };
}

/**
 * The read (or the one that travelled with the key read) and the evaluation of a user or merchant
 * screening: the rules in memory, with the lists of the cached configuration.
 */
async function readAndEvaluate<TStored extends { createdAt: number }>(
  pool: Pool,
  config: TScreeningConfig,
  clientId: string,
  shape: TPartyShape<TStored>,
  prefetched: TPartyPrefetched | null,
) {
  const { rules, plan, withSanctions, spec } = prefetched?.planned ?? partyRead(config, clientId, shape);
  const read = prefetched?.read ?? (await readSubjectWithAggregates(pool, spec));
  const row = read.stored as (Record<string, unknown> & Partial<TSanctionsState>) | null;
  const stored = row?.createdAt == null ? null : (row as unknown as TStored);
  const variables = shape.variablesOf(stored);
  const { lookups, links, ...result } = await decide(pool, {
    clientId,
    subject: shape.subject,
    subjectId: shape.subjectId,
    variables,
    rules,
    lists: config.lists,
    values: read.values,
    compileErrors: plan.compileErrors,
    sanctionsState: withSanctions ? { version: row!.version!, excluded: row!.excluded! } : null,
  });
  return { stored, variables, result, lookups, links };
}

/** One attempt of a user or merchant screening: the read (or the prefetched one), the rules, the write. */
type TPartyScreeningOnce<TBody> = (
  pool: Pool,
  clientId: string,
  config: TScreeningConfig,
  body: TBody,
  prefetched: TPartyPrefetched | null,
) => Promise<TRiskAssessment>;

/** One user or merchant screening: `once` retried from the read; the prefetched read is used once. */
function screenPartyHot<TBody>(
  once: TPartyScreeningOnce<TBody>,
  { client, body, prefetched = null }: THotScreening<TBody, TPartyPrefetched>,
): Promise<TRiskAssessment> {
  const pool = pgPool();
  return retryOnConflict(async (attempt) =>
    once(pool, client.id, await screeningConfig(pool, client), body, attempt === 1 ? prefetched : null),
  );
}

/**
 * The read and evaluation of a user or merchant screening, its answer, and its decision write
 * (decisionWrite with the subject row's outcome as columns of the caller's own INSERT/UPDATE, and the
 * `<subject>.screened` webhook rows) in `p`, the parameters of the caller's ONE write statement.
 */
async function evaluateParty<TStored extends { createdAt: number }>(
  pool: Pool,
  config: TScreeningConfig,
  clientId: string,
  shape: TPartyShape<TStored>,
  prefetched: TPartyPrefetched | null,
) {
  const started = performance.now();
  const now = new Date();
  const { stored, variables, result, lookups, links } = await readAndEvaluate(
    pool,
    config,
    clientId,
    shape,
    prefetched,
  );
  const answer = assessment(shape.subjectId, result, now);
  const p = new Params();
  const write = decisionWrite(p, {
    clientId,
    subject: shape.subject,
    subjectId: shape.subjectId,
    result,
    input: decisionInput({
      variables,
      aggregates: result.aggregatesByVersion,
      timestamp: shape.timestamp,
      lookups,
      links,
    }),
    durationMs: performance.now() - started,
    answer,
    assessedAt: now,
    subscriptions: config.subscriptions,
    event: `${shape.subject}.screened`,
    subjectRow: "columns",
  });
  return { stored, now, answer, p, write };
}

// ---------------------------------------------------------------------------------------------- user

export type TStoredUser = { status: string; createdAt: number };

/** The read of a user screening as it travels with the API key read (POST /v1/user/onboard). */
export function plannedUserRead(guess: TClientContext, body: TUser) {
  return plannedPartyRead(guess, userShape(body));
}

export async function screenUserHot(args: THotScreening<TUser, TPartyPrefetched>): Promise<TRiskAssessment> {
  return screenPartyHot(screenUserOnce, args);
}

function userShape(body: TUser): TPartyShape<TStoredUser> {
  const requested = body.status ? toStoredStatus(body.status) : undefined;
  const data = asStored(body);
  return {
    subject: "user",
    subjectId: body.id,
    timestamp: body.timestamp,
    table: `"users"`,
    columns: `s."status", (extract(epoch FROM s."createdAt") * 1000)::float8 AS "createdAt"`,
    // the request under `user`, with the stored status and first-seen createdAt (as screenUserPrisma)
    variablesOf: (stored) => {
      const status = requested ?? stored?.status ?? "active";
      const createdAt = new Date(stored ? stored.createdAt : body.timestamp);
      return {
        user: {
          ...storedEntity({ data, status, createdAt }),
          ...body,
          status,
          createdAt: createdAt.getTime(),
        },
      };
    },
    storedFields: ["status", "createdAt"],
  };
}

const screenUserOnce: TPartyScreeningOnce<TUser> = async (pool, clientId, config, body, prefetched) => {
  // The write: user (insert, or update while its status is the one read), status change, phone and
  // email links replaced, device, decision, outcome, user.screened.
  const { stored, now, answer, p, write } = await evaluateParty(
    pool,
    config,
    clientId,
    userShape(body),
    prefetched,
  );
  const ctes = userUpsertCtes(p, { clientId, body, source: "onboard", stored, now, outcome: write.outcome });
  ctes.push(...write.ctes);
  await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["u"])}`, p.values);
  return answer;
};

/** POST /v1/user (no screening): upsertUser in one read and one write statement. */
export async function saveUserHot({
  clientId,
  user,
  source = "api",
}: {
  clientId: string;
  user: TUser;
  /** Recorded on the user's status change (user_status_changes.source). */
  source?: string;
}): Promise<{ id: string; created: boolean }> {
  const pool = pgPool();
  return retryOnConflict(async () => {
    const { rows } = await pool.query<TStoredUser>(
      `SELECT "status", (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt"
       FROM "users" WHERE "clientId" = $1 AND "id" = $2`,
      [clientId, user.id],
    );
    const stored = rows[0] ?? null;
    const p = new Params();
    const ctes = userUpsertCtes(p, {
      clientId,
      body: user,
      source,
      stored,
      now: new Date(),
      outcome: [],
    });
    await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["u"])}`, p.values);
    return { id: user.id, created: !stored };
  });
}

/**
 * upsertUser as CTEs of one statement (`u` RETURNING one row when applied; the caller ends the
 * statement with abortUnlessWritten(["u"])): the user inserted, or updated while its status is still
 * `stored.status`; its status change; its phone and email links replaced; its device and the
 * device's links. `outcome` adds columns to the user's insert or update.
 */
export function userUpsertCtes(
  p: Params,
  {
    clientId,
    body,
    source,
    stored,
    now,
    outcome,
    withDevice = true,
  }: {
    clientId: string;
    body: TUser;
    source: string;
    stored: TStoredUser | null;
    now: Date;
    outcome: Array<[string, string]>;
    /** false: the caller upserts `body.userDevice` (and links it) in the same statement itself. */
    withDevice?: boolean;
  },
): string[] {
  const c = p.add(clientId, "text");
  const u = p.add(body.id, "text");
  const src = once(() => p.add(source, "text"));
  const at = p.add(now, "timestamptz");
  const requested = body.status ? toStoredStatus(body.status) : undefined;
  const status = requested ?? stored?.status ?? "active";
  const fields: Array<[string, string]> = [
    ["firstName", p.add(body.firstName ?? null, "text")],
    ["lastName", p.add(body.lastName ?? null, "text")],
    ["email", p.add(body.email?.email ?? null, "text")],
    ["phone", p.add(body.phone?.phone ?? null, "text")],
    ["data", p.json(body)],
    ["status", p.add(status, "text")],
    ["updatedAt", at],
    ...outcome,
  ];
  const ctes: string[] = [];
  if (!stored) {
    // a concurrent creation makes this plain INSERT a unique violation: retried from the read
    ctes.push(
      `u AS (INSERT INTO "users" ("clientId", "id", "createdAt", ${fields.map(([k]) => `"${k}"`).join(", ")})
         VALUES (${c}, ${u}, ${p.add(new Date(body.timestamp), "timestamptz")}, ${fields.map(([, v]) => v).join(", ")})
         RETURNING 1)`,
      `sc AS (INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source", "details")
         VALUES (${p.add(newId(), "text")}, ${c}, ${u}, NULL, ${p.add(status, "text")}, ${src()}, '{"created":true}'::jsonb))`,
    );
  } else {
    const changed = status !== stored.status;
    if (changed) fields.push(["statusReason", "NULL"]);
    const from = p.add(stored.status, "text");
    ctes.push(
      `u AS (UPDATE "users" SET ${fields.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
         WHERE "clientId" = ${c} AND "id" = ${u} AND "status" = ${from} RETURNING 1)`,
    );
    if (changed)
      ctes.push(
        `sc AS (INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source")
           VALUES (${p.add(newId(), "text")}, ${c}, ${u}, ${from}, ${p.add(status, "text")}, ${src()}))`,
      );
  }

  // replaceIdentifiers(phone, email): links no longer sent are deleted, links sent again take the new
  // source (as a delete and re-insert would), new ones are inserted below. No row is written twice.
  const links = new Map<string, [string, string]>();
  for (const { kind, value } of identifiersOfUser(body)) {
    const normalized = normalizeIdentifier(kind, value);
    if (normalized !== "") links.set(`${kind}\u0000${normalized}`, [kind, normalized]);
  }
  const kept = links.size
    ? `(VALUES ${p.rows(
        [...links.values()].map(([kind, value]) => [
          [kind, "text"],
          [value, "text"],
        ]),
      )}) AS k("kind", "value")`
    : null;
  ctes.push(
    `ud AS (DELETE FROM "user_identifiers" WHERE "clientId" = ${c} AND "userId" = ${u} AND "kind" IN ('phone', 'email')
       ${kept ? `AND ("kind", "value") NOT IN (SELECT k."kind", k."value" FROM ${kept})` : ""})`,
  );
  if (kept)
    ctes.push(
      `uk AS (UPDATE "user_identifiers" i SET "source" = ${src()}, "createdAt" = now() FROM ${kept}
         WHERE i."clientId" = ${c} AND i."userId" = ${u} AND i."kind" = k."kind" AND i."value" = k."value")`,
    );
  const identifiers = new IdentifierRows();
  identifiers.add(body.id, identifiersOfUser(body), source);
  if (body.userDevice && withDevice) {
    ctes.push(
      `dv AS (${deviceUpsert(p, { clientId, userId: body.id, device: body.userDevice, seenAt: now })})`,
    );
    identifiers.add(body.id, deviceIdentifiers(body.userDevice), source);
  }
  const identifierInsert = identifiers.cte(p, clientId);
  if (identifierInsert) ctes.push(`ui AS (${identifierInsert})`);
  return ctes;
}

// ------------------------------------------------------------------------------------------ merchant

export type TStoredMerchant = { data: unknown; status: string | null; createdAt: number; dataHash: string };

/** The read of a merchant screening as it travels with the API key read (POST /v1/merchantRequest). */
export function plannedMerchantRead(guess: TClientContext, body: TMerchant) {
  return plannedPartyRead(guess, merchantShape(body));
}

export async function screenMerchantHot(
  args: THotScreening<TMerchant, TPartyPrefetched>,
): Promise<TRiskAssessment> {
  return screenPartyHot(screenMerchantOnce, args);
}

function merchantShape(body: TMerchant): TPartyShape<TStoredMerchant> {
  return {
    subject: "merchant",
    subjectId: body.id,
    timestamp: body.timestamp,
    table: `"merchants"`,
    columns: `s."data", s."status", (extract(epoch FROM s."createdAt") * 1000)::float8 AS "createdAt",
      md5(s."data"::text) AS "dataHash"`,
    // the stored record: its `timestamp` is the first one received for the id (Merchant rule 2)
    variablesOf: (stored) => {
      const { data, status, createdAt } = mergedMerchant(body, stored);
      return { merchant: storedMerchant({ data, status, createdAt })! };
    },
    storedFields: ["status", "createdAt", "timestamp"],
  };
}

/** What upsertMerchant leaves stored, from the row read before it. */
export function mergedMerchant(body: TMerchant, stored: TStoredMerchant | null) {
  if (!stored) {
    const createdAt = new Date(body.timestamp);
    return { kind: "new" as const, data: asStored(body), status: body.status ?? null, createdAt };
  }
  const createdAt = new Date(stored.createdAt);
  const kept = keepFirstTimestamp(body, createdAt);
  // an identical resend (a retried request) is not a correction and leaves no history
  if (canonicalJson(stored.data) === canonicalJson(kept))
    return { kind: "same" as const, data: stored.data, status: stored.status, createdAt, kept };
  return { kind: "changed" as const, data: asStored(kept), status: body.status ?? null, createdAt, kept };
}

const screenMerchantOnce: TPartyScreeningOnce<TMerchant> = async (
  pool,
  clientId,
  config,
  body,
  prefetched,
) => {
  // The write: merchant (insert, or update while it holds the body and status read; a correction
  // also appends the replaced body to merchant_versions), decision, outcome, merchant.screened.
  const { stored, now, answer, p, write } = await evaluateParty(
    pool,
    config,
    clientId,
    merchantShape(body),
    prefetched,
  );
  const ctes = merchantUpsertCtes(p, { clientId, merchant: body, stored, now, outcome: write.outcome });
  ctes.push(...write.ctes);
  await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["m"])}`, p.values);
  return answer;
};

/**
 * The one writer of a merchant record, as CTEs of the caller's statement (`m` returns one row when
 * applied; the caller ends the statement with abortUnlessWritten(["m"])). A new merchant is inserted (a
 * concurrent creation is a unique violation: retried from the read); a changed one is updated while it
 * holds the body and status read, its replaced body appended to merchant_versions; an identical resend
 * writes only `outcome` (or, without one, locks the row while it still holds what was read). The stored
 * body keeps the first timestamp (mergedMerchant).
 */
export function merchantUpsertCtes(
  p: Params,
  {
    clientId,
    merchant,
    stored,
    now,
    outcome = [],
  }: {
    clientId: string;
    merchant: TMerchant;
    stored: TStoredMerchant | null;
    now: Date;
    outcome?: Array<[string, string]>;
  },
): string[] {
  const merged = mergedMerchant(merchant, stored);
  const c = p.add(clientId, "text");
  const m = p.add(merchant.id, "text");
  const at = once(() => p.add(now, "timestamptz"));
  const fields: Array<[string, string]> =
    merged.kind === "same"
      ? [...outcome]
      : [
          ["name", p.add(merchant.name, "text")],
          ["status", p.add(merchant.status ?? null, "text")],
          ["organizationId", p.add(merchant.organizationId ?? null, "text")],
          ["data", p.json(merged.kind === "new" ? merchant : merged.kept)],
          ["updatedAt", at()],
          ...outcome,
        ];
  if (merged.kind === "new")
    return [
      `m AS (INSERT INTO "merchants" ("clientId", "id", "createdAt", ${fields.map(([k]) => `"${k}"`).join(", ")})
         VALUES (${c}, ${m}, ${p.add(merged.createdAt, "timestamptz")}, ${fields.map(([, v]) => v).join(", ")})
         RETURNING 1)`,
    ];
  const unchanged = `"clientId" = ${c} AND "id" = ${m} AND md5("data"::text) = ${p.add(stored!.dataHash, "text")}
           AND "status" IS NOT DISTINCT FROM ${p.add(stored!.status, "text")}`;
  if (fields.length === 0) return [`m AS (SELECT 1 FROM "merchants" WHERE ${unchanged} FOR UPDATE)`];
  const ctes = [
    `m AS (UPDATE "merchants" SET ${fields.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
       WHERE ${unchanged} RETURNING 1)`,
  ];
  if (merged.kind === "changed")
    ctes.push(
      `mv AS (INSERT INTO "merchant_versions" ("id", "clientId", "merchantId", "data", "createdAt")
         SELECT ${p.add(newId(), "text")}, "clientId", "id", "data", ${at()}
         FROM "merchants" WHERE "clientId" = ${c} AND "id" = ${m})`,
    );
  return ctes;
}

/**
 * A merchant record without a screening (demo data, a report's inline merchant): one read of the
 * stored row, one write (merchantUpsertCtes), from the read again when the write was aborted.
 */
export async function saveMerchantHot({
  clientId,
  merchant,
}: {
  clientId: string;
  merchant: TMerchant;
}): Promise<{ id: string; created: boolean }> {
  const pool = pgPool();
  return retryOnConflict(async () => {
    const { rows } = await pool.query<TStoredMerchant>(
      `SELECT "data", "status", (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt",
         md5("data"::text) AS "dataHash"
       FROM "merchants" WHERE "clientId" = $1 AND "id" = $2`,
      [clientId, merchant.id],
    );
    const stored = rows[0] ?? null;
    const p = new Params();
    const ctes = merchantUpsertCtes(p, { clientId, merchant, stored, now: new Date() });
    await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["m"])}`, p.values);
    return { id: merchant.id, created: !stored };
  });
}
