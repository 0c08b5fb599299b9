import { currentRequestId } from "@/lib/ops/request-context";
import type { TSubscriptionRef } from "@/lib/screening/screening-config";
import { newId, type Params } from "@/lib/screening/sql/statements";
import { webhookCtes, webhookRows, type TWebhookRows } from "@/lib/screening/sql/webhook-rows";
import type { TRiskAssessment } from "@/lib/screening/assessment";
import type { TFxConversion } from "@/lib/fx/rates";
import type { TListLookup } from "@/lib/lists/in-list";
import { decisionInput, type evaluateRules, type TSubject } from "@/lib/screening/run-rules";
import { webhookPayload, type TScreenedEventType } from "@/lib/webhooks/payloads";

// What a screening without alerts writes after evaluating (user, merchant, payment instrument, event),
// as CTE fragments for the caller's ONE write statement (a statement with data-modifying CTEs is
// atomic, so no BEGIN/COMMIT is needed):
//
//   - the decision (rules evaluated, aggregates, the input replay needs, the response);
//   - the subject row's outcome (riskLevel, recommendedAction, assessedAt, decisionId);
//   - the `<subject>.screened` webhook rows (outbox + deliveries, webhook-rows.ts), exactly as emitWebhookEvent
//     writes them.
//
// Usage (see screen-user.ts):
//
//   const p = new Params();
//   const w = decisionWrite(p, { clientId, subject: "user", subjectId, result, input, durationMs,
//     answer, subscriptions: config.subscriptions, event: "user.screened", subjectRow: "update" });
//   await pool.query(`WITH ${[...myCtes, ...w.ctes].join(",\n")} SELECT 1`, p.values);
//
// One statement must not write one row twice (PostgreSQL applies only one of the two changes), so a
// caller that itself inserts or updates the subject row in the same statement passes
// `subjectRow: "columns"` and puts `w.outcome` (column → SQL value pairs) into its own INSERT/UPDATE.
// CTE names used: `dec`, `outcome`, `wo`, `wd`.

export type TEvaluation = Pick<
  ReturnType<typeof evaluateRules>,
  "riskLevel" | "recommendedAction" | "triggered" | "evaluated" | "aggregatesByVersion"
>;

/** The table of each subject's row (the outcome update). Events have no outcome columns. */
export const SUBJECT_TABLES: Partial<Record<TSubject, string>> = {
  transaction: `"transactions"`,
  user: `"users"`,
  merchant: `"merchants"`,
  paymentInstrument: `"payment_instruments"`,
};

export type TDecisionWrite = {
  /** The new decision's id (also the value of `decisionId` in `outcome`). */
  decisionId: string;
  /** CTE fragments (`name AS (…)`) to join into the caller's WITH list. */
  ctes: string[];
  /**
   * The subject row's outcome as [column, SQL value] pairs (empty for "none"). With "columns" the
   * caller MUST put them in its statement: every parameter added to `p` has to be referenced.
   */
  outcome: Array<[string, string]>;
};

/**
 * The one writer of a decision, as the CTE `name`: the rules evaluated, the aggregate values, the input
 * replay needs, the response, the time taken and the request id. `did`, `c`, `id`: the placeholders of
 * the decision id, the client id and the subject id.
 */
export function decisionCte(
  p: Params,
  {
    name,
    did,
    c,
    subject,
    id,
    result,
    input,
    durationMs,
  }: {
    name: string;
    did: string;
    c: string;
    subject: TSubject;
    id: string;
    result: TEvaluation;
    input: Record<string, unknown>;
    durationMs: number;
  },
): string {
  const { riskLevel, recommendedAction, triggered, evaluated, aggregatesByVersion } = result;
  return `${name} AS (INSERT INTO "decisions" ("id", "clientId", "subjectType", "subjectId", "riskLevel", "recommendedAction",
         "evaluated", "aggregates", "input", "response", "durationMs", "requestId")
       VALUES (${did}, ${c}, ${p.add(subject, "text")}, ${id}, ${p.add(riskLevel, "text")},
         ${p.add(recommendedAction, "text")}, ${p.json(evaluated)}, ${p.json(aggregatesByVersion)}, ${p.json(input)},
         ${p.json({ riskLevel, recommendedAction, triggered })}, ${p.add(durationMs, "float8")},
         ${p.add(currentRequestId(), "text")}))`;
}

export function decisionWrite(
  p: Params,
  {
    clientId,
    subject,
    subjectId,
    result,
    input,
    durationMs,
    answer,
    assessedAt,
    subscriptions,
    event,
    subjectRow,
  }: {
    clientId: string;
    subject: TSubject;
    subjectId: string;
    /** evaluateRules' result (inside evaluateWithLists). */
    result: TEvaluation;
    /** decisionInput(…): what CEL saw, stored for replay. */
    input: Record<string, unknown>;
    /** Stored as the decision's durationMs (measured from before the aggregates). */
    durationMs: number;
    /** The answer of the request: its `timestamp` is not used, `assessedAt` is. */
    answer: TRiskAssessment;
    assessedAt: Date;
    /** The client's active subscriptions (screeningConfig(…).subscriptions). */
    subscriptions: readonly TSubscriptionRef[];
    /** The webhook event emitted with `answer` as payload, e.g. "user.screened"; null for none. */
    event: TScreenedEventType | null;
    /**
     * "update": a CTE `outcome` updates the existing subject row (clientId, id);
     * "columns": the caller writes the row and includes `outcome`; "none": no outcome (events).
     */
    subjectRow: "update" | "columns" | "none";
  },
): TDecisionWrite {
  const decisionId = newId();
  const c = p.add(clientId, "text");
  const id = p.add(subjectId, "text");
  const did = p.add(decisionId, "text");
  const ctes = [decisionCte(p, { name: "dec", did, c, subject, id, result, input, durationMs })];
  // (no parameter is added that the statement would not reference: it would have no type)
  const outcome: Array<[string, string]> =
    subjectRow === "none"
      ? []
      : [
          ["riskLevel", p.add(answer.riskLevel, "text")],
          ["recommendedAction", p.add(answer.recommendedAction, "text")],
          ["assessedAt", p.add(assessedAt, "timestamptz")],
          ["decisionId", did],
        ];
  if (subjectRow === "update") {
    const table = SUBJECT_TABLES[subject];
    if (!table) throw new Error(`no outcome columns for subject ${subject}`);
    ctes.push(
      `outcome AS (UPDATE ${table} SET ${outcome.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
         WHERE "clientId" = ${c} AND "id" = ${id})`,
    );
  }
  if (event) {
    const webhooks: TWebhookRows = { outbox: [], deliveries: [] };
    webhookRows(webhooks, subscriptions, { event, payload: webhookPayload[event](answer) });
    ctes.push(...webhookCtes(p, clientId, webhooks, null, new Date()));
  }
  return { decisionId, ctes, outcome };
}

/**
 * decisionWrite of what `decide` returned: the decision's input is decisionInput of the variables,
 * the result's aggregates and list lookups; its durationMs runs from `started` (performance.now()).
 */
export function decidedWrite(
  p: Params,
  {
    decided,
    variables,
    timestamp,
    fx,
    started,
    ...write
  }: Omit<Parameters<typeof decisionWrite>[1], "result" | "input" | "durationMs"> & {
    decided: TEvaluation & {
      lookups: readonly TListLookup[];
      links?: Record<string, Record<string, number>>;
    };
    variables: Record<string, unknown>;
    timestamp: number;
    fx?: TFxConversion;
    started: number;
  },
): TDecisionWrite {
  return decisionWrite(p, {
    ...write,
    result: decided,
    input: decisionInput({
      variables,
      aggregates: decided.aggregatesByVersion,
      timestamp,
      fx,
      lookups: decided.lookups,
      links: decided.links,
    }),
    durationMs: performance.now() - started,
  });
}
