// Helpers of the equivalence tests: a raw-SQL screening path against the Prisma path it replaced,
// comparing what each stored for its own client, without the ids and times that differ between them.
import { prisma } from "@/lib/db";
import { knownApiError } from "@/lib/http/errors";

/** The answer of a domain function as the route would give it: 200 and the body, or the error's status and body. */
export async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: await run() };
  } catch (err) {
    const known = knownApiError(err);
    if (known) return { status: known.status, body: known.toBody() };
    throw err;
  }
}

/** An answer without its screening time. */
export function untimed(answer: { status: number; body: unknown }) {
  const body = answer.body as Record<string, unknown> | null;
  return { ...answer, body: body && "timestamp" in body ? { ...body, timestamp: 0 } : body };
}

/** The client's decisions: subject, outcome, answer, per-rule results, aggregate values by rule id, CEL input. */
export async function decisionsOf(clientId: string) {
  const decisions = await prisma.decision.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
  return decisions
    .map((d) => {
      const evaluated = d.evaluated as Array<{
        versionId: string;
        ruleId: string;
        status: string;
        triggered: boolean;
        error?: string;
      }>;
      const names = new Map(evaluated.map((e) => [e.versionId, e.ruleId]));
      const input = d.input as Record<string, unknown>;
      return {
        subject: `${d.subjectType}:${d.subjectId}`,
        riskLevel: d.riskLevel,
        recommendedAction: d.recommendedAction,
        response: d.response,
        evaluated: evaluated.map((e) => [e.ruleId, e.status, e.triggered, e.error ?? null]),
        aggregates: Object.fromEntries(
          Object.entries(d.aggregates as Record<string, unknown>).map(([v, values]) => [
            names.get(v),
            values,
          ]),
        ),
        variables: input.variables,
        timestamp: input.timestamp,
        fx: input.fx,
        lists: input.lists,
      };
    })
    .sort((a, b) => a.subject.localeCompare(b.subject) || JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Rows of a query taking the client id as $1, as JSON strings. */
export async function rowsOf(clientId: string, sql: string): Promise<string[]> {
  return (await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, clientId)).map((r) =>
    JSON.stringify(r),
  );
}

/** What every screening also writes: identifiers, webhook deliveries (without times) and outbox rows. */
export async function sideRowsOf(clientId: string) {
  return {
    identifiers: await rowsOf(
      clientId,
      `SELECT kind, value, "userId", source FROM user_identifiers WHERE "clientId" = $1 ORDER BY kind, value, "userId"`,
    ),
    deliveries: await rowsOf(
      clientId,
      `SELECT "eventType", (body::jsonb #- '{payload,alertedAt}' #- '{payload,timestamp}') - 'timestamp' AS body, status
       FROM webhook_deliveries WHERE "clientId" = $1 ORDER BY "eventType", body`,
    ),
    outbox: await rowsOf(
      clientId,
      `SELECT name, count(*)::int AS n FROM outbox_events WHERE "clientId" = $1 GROUP BY name ORDER BY name`,
    ),
    alerts: await rowsOf(
      clientId,
      `SELECT "transactionId", "userId", "ruleId", "ruleName", level, reason, "recommendedAction", status,
         ("decisionId" IS NOT NULL) AS decided
       FROM alerts WHERE "clientId" = $1 ORDER BY "transactionId", "ruleId"`,
    ),
  };
}
