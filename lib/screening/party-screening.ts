import type { Pool } from "pg";
import type { TKeyedRead } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool } from "@/lib/db";
import {
  sanctionsStateColumns,
  screenedUserId,
  type TSanctionsState,
} from "@/lib/sanctions/prepare-sanctions-screening";
import { usesSanctions } from "@/lib/sanctions/score-context";
import { assessment, type TRiskAssessment } from "@/lib/screening/assessment";
import {
  screeningConfig,
  type TScreeningRequest,
  type TScreeningConfig,
} from "@/lib/screening/screening-config";
import { decide } from "@/lib/screening/decide";
import { decisionWrite } from "@/lib/screening/sql/decision-write";
import { retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { Params } from "@/lib/screening/sql/statements";
import {
  readSubjectWithAggregates,
  subjectReadStatement,
  type TSubjectRead,
  type TSubjectReadSpec,
} from "@/lib/screening/sql/subject-read";
import { decisionInput, planAggregates } from "@/lib/screening/run-rules";

// What the user and merchant screenings (screen-user.ts, screen-merchant.ts; README.md here, "Other
// screenings") share: ONE read (the stored user or merchant and every aggregate), the rules in memory,
// ONE write statement (the upsert with its side rows, the decision, the row's outcome, the webhook rows).
//
// Without a transaction around the read and the write, the write is optimistic: it inserts a new row
// with a plain INSERT (a concurrent creation is a unique violation) or updates the existing one only
// while it still holds what the evaluation used (the user's status; the merchant's body and status),
// and otherwise aborts the whole statement (a division by zero in its last SELECT). Either way nothing
// is written and the screening starts again from the read.

/** What a user or merchant screening reads: its table, the stored columns, its CEL variables. */
export type TPartyShape<TStored> = {
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
export async function plannedPartyRead<TStored extends { createdAt: number }>(
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
export type TPartyScreeningOnce<TBody> = (
  pool: Pool,
  clientId: string,
  config: TScreeningConfig,
  body: TBody,
  prefetched: TPartyPrefetched | null,
) => Promise<TRiskAssessment>;

/** One user or merchant screening: `once` retried from the read; the prefetched read is used once. */
export function screenParty<TBody>(
  once: TPartyScreeningOnce<TBody>,
  { client, body, prefetched = null }: TScreeningRequest<TBody, TPartyPrefetched>,
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
export async function evaluateParty<TStored extends { createdAt: number }>(
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
