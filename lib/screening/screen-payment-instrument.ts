import type { TKeyedRead } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool } from "@/lib/db";
import type {
  TPaymentInstrumentAssessment,
  TPaymentInstrumentRequest,
  TWalletVerification,
} from "@/lib/payment-instruments/schemas";
import { verifyWallet } from "@/lib/payment-instruments/verify-wallet";
import { assessment, storedEntity } from "@/lib/screening/assessment";
import {
  screeningConfig,
  type TScreeningConfig,
  type TScreeningRequest,
} from "@/lib/screening/screening-config";
import { decide, type TDecided } from "@/lib/screening/decide";
import { decidedWrite } from "@/lib/screening/sql/decision-write";
import { commitWrite, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { Params } from "@/lib/screening/sql/statements";
import {
  readSubjectWithAggregates,
  subjectReadStatement,
  type TSubjectRead,
  type TSubjectReadSpec,
} from "@/lib/screening/sql/subject-read";
import { IdentifierRows } from "@/lib/screening/sql/identifier-rows";
import { webhookCtes, webhookRows, type TWebhookRows } from "@/lib/screening/sql/webhook-rows";
import { webhookPayload } from "@/lib/webhooks/payloads";
import { planAggregates } from "@/lib/screening/run-rules";
import { identifiersFromPaymentMethods } from "@/lib/users/index-identifiers";
import type { Tx } from "@/lib/db";

// PUT /v1/paymentInstrument in raw SQL (README.md here): ONE read (the stored user and every aggregate; the
// aggregates of an instrument read history only) when rules or wallet verification need it, the
// rules in memory, then ONE write statement (decision, instrument upsert, identifiers, webhook rows),
// atomic without BEGIN/COMMIT.

type TStoredUser = { data: unknown; status: string | null; createdAt: number };

/** What the screening reads: the stored user and every aggregate (null: no read needed). */
function instrumentRead(
  client: TClientContext,
  config: TScreeningConfig,
  body: TPaymentInstrumentRequest,
  now: number,
) {
  const instrument = body.paymentInstrument;
  const method =
    instrument.method ??
    (["bank", "card", "wallet", "crypto", "vas", "ewa", "cash"] as const).find((m) => instrument[m]);
  const verifiesWallet = client.features.has("walletVerification") && method === "wallet";
  const rulesOn = client.features.has("paymentInstrumentRules");
  const timestamp = body.timestamp ?? now;
  const variables: Record<string, unknown> = { paymentInstrument: { ...instrument, status: body.status } };
  const rules = rulesOn ? (config.rules.get("paymentInstrument") ?? []) : [];
  const plan = planAggregates(rules, "paymentInstrument");
  const spec: TSubjectReadSpec<TStoredUser> | null =
    rulesOn || verifiesWallet
      ? {
          clientId: client.id,
          subject: "paymentInstrument",
          subjectId: instrument.id,
          timestamp,
          requests: plan.requests,
          stored: (
            p,
            c,
          ) => `SELECT "data", "status", (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt"
            FROM "users" WHERE "clientId" = ${c} AND "id" = ${p.add(instrument.userId, "text")}`,
          variables: () => variables,
          // an instrument's group values come from the request (its userId, its card), never the user
          dependsOnStored: () => false,
        }
      : null;
  return { instrument, method, verifiesWallet, rulesOn, timestamp, variables, rules, plan, spec };
}

/** The screening's read as it travels with the API key read, with the time its window ends at. */
export type TInstrumentPrefetched = { now: number; read: TSubjectRead<TStoredUser> };

/** The read planned for the client the key resolved to last time (withClientRead); null: no read. */
export async function plannedInstrumentRead(
  guess: TClientContext,
  body: TPaymentInstrumentRequest,
): Promise<{
  build: TKeyedRead["build"];
  result: (row: Record<string, unknown>) => TInstrumentPrefetched;
} | null> {
  const now = Date.now();
  const { spec } = instrumentRead(guess, await screeningConfig(pgPool(), guess), body, now);
  if (!spec) return null;
  let statement: ReturnType<typeof subjectReadStatement<TStoredUser>> = null;
  return {
    build: (params, clientSql) => {
      statement = subjectReadStatement(spec, params, clientSql);
      return statement!.sql;
    },
    result: (row) => ({ now, read: statement!.result(row) }),
  };
}

export async function screenPaymentInstrument({
  client,
  body,
  prefetched = null,
}: TScreeningRequest<
  TPaymentInstrumentRequest,
  TInstrumentPrefetched
>): Promise<TPaymentInstrumentAssessment> {
  const clientId = client.id;
  const pool = pgPool();
  const config = await screeningConfig(pool, client);
  const now = new Date();

  // The read (only when the rules or the wallet verification need the stored user).
  const started = performance.now();
  const { instrument, method, verifiesWallet, rulesOn, timestamp, variables, rules, plan, spec } =
    instrumentRead(client, config, body, prefetched?.now ?? now.getTime());
  const { stored: user, values } = spec
    ? (prefetched?.read ?? (await readSubjectWithAggregates(pool, spec)))
    : { stored: null, values: new Map() };
  let decided: TDecided | null = null;
  if (rulesOn) {
    const storedUser = storedEntity(user && { ...user, createdAt: new Date(user.createdAt) });
    if (storedUser) variables.user = storedUser;
    decided = await decide(pool, {
      clientId,
      subject: "paymentInstrument",
      subjectId: instrument.id,
      variables,
      rules,
      lists: config.lists,
      values,
      compileErrors: plan.compileErrors,
    });
  }

  const answer: TPaymentInstrumentAssessment = assessment(
    instrument.id,
    decided ?? { riskLevel: "low", recommendedAction: "ALLOW", triggered: [] },
    now,
  );
  let walletVerification: TWalletVerification | undefined;
  if (verifiesWallet) {
    walletVerification = verifyWallet(instrument.wallet ?? {}, (user?.data ?? null) as never);
    answer.walletVerification = walletVerification;
  }

  // The write: one statement, all or nothing.
  const q = new Params();
  const write = decided
    ? decidedWrite(q, {
        clientId,
        subject: "paymentInstrument",
        subjectId: instrument.id,
        decided,
        variables,
        timestamp,
        started,
        answer,
        assessedAt: now,
        subscriptions: config.subscriptions,
        event: null,
        subjectRow: "none",
      })
    : null;
  const decisionId = write ? q.add(write.decisionId, "text") : "NULL::text";
  const c = q.add(clientId, "text");
  const ctes: string[] = write ? [...write.ctes] : [];
  // an update without walletVerification keeps the stored one (Prisma's undefined)
  ctes.push(`pi AS (INSERT INTO "payment_instruments" ("clientId", "id", "userId", "status", "method", "data", "inferred",
       "riskLevel", "recommendedAction", "walletVerification", "assessedAt", "decisionId", "occurredAt", "updatedAt")
     VALUES (${c}, ${q.add(instrument.id, "text")}, ${q.add(instrument.userId, "text")}, ${q.add(body.status, "text")},
       ${q.add(method ?? null, "text")}, ${q.json(instrument)}, false, ${q.add(answer.riskLevel, "text")},
       ${q.add(answer.recommendedAction, "text")}, ${q.json(walletVerification ?? null)}, ${q.add(now, "timestamptz")},
       ${decisionId}, ${q.add(body.timestamp ? new Date(body.timestamp) : null, "timestamptz")},
       ${q.add(new Date(body.updatedAt ?? now.getTime()), "timestamptz")})
     ON CONFLICT ("clientId", "id") DO UPDATE SET "userId" = EXCLUDED."userId", "status" = EXCLUDED."status",
       "method" = EXCLUDED."method", "data" = EXCLUDED."data", "inferred" = false, "riskLevel" = EXCLUDED."riskLevel",
       "recommendedAction" = EXCLUDED."recommendedAction",
       "walletVerification" = coalesce(EXCLUDED."walletVerification", "payment_instruments"."walletVerification"),
       "assessedAt" = EXCLUDED."assessedAt", "decisionId" = EXCLUDED."decisionId", "occurredAt" = EXCLUDED."occurredAt",
       "updatedAt" = EXCLUDED."updatedAt")`);
  const identifiers = new IdentifierRows();
  identifiers.add(instrument.userId, identifiersFromPaymentMethods(instrument), "paymentInstrument");
  const identifierInsert = identifiers.cte(q, clientId);
  if (identifierInsert) ctes.push(`ui AS (${identifierInsert})`);
  const webhooks: TWebhookRows = { outbox: [], deliveries: [] };
  webhookRows(webhooks, config.subscriptions, {
    event: "payment_instrument.screened",
    payload: webhookPayload["payment_instrument.screened"](answer),
  });
  ctes.push(...webhookCtes(q, clientId, webhooks, null, new Date()));
  await retryOnConflict(() => commitWrite(pool, q, `WITH ${ctes.join(",\n")} SELECT 1`));
  return answer;
}

/** GET: the stored answer; rules are not re-evaluated, so triggered is always empty. */
export async function getPaymentInstrumentAssessment(
  db: Tx,
  { clientId, id }: { clientId: string; id: string },
): Promise<TPaymentInstrumentAssessment | null> {
  const row = await db.paymentInstrument.findUnique({ where: { clientId_id: { clientId, id } } });
  if (!row) return null;
  const answer: TPaymentInstrumentAssessment = assessment(
    row.id,
    { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered: [] },
    row.assessedAt,
  );
  if (row.walletVerification) answer.walletVerification = row.walletVerification as TWalletVerification;
  return answer;
}
