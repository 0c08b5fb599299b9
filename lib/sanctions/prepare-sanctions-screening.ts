// The screening's entry into sanctions matching: called once per screening by runRules.
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logError } from "@/lib/log";
import { getSanctionsIndex, SANCTIONS_VERSION_SQL } from "@/lib/sanctions/get-sanctions-index";
import {
  evaluateWithSanctions,
  usesSanctions,
  type TSanctionsEvaluation,
  type TSanctionsHit,
} from "@/lib/sanctions/score-context";

export type TSanctionsScreening = {
  /** Evaluates one rule with sanctionsScore available; a triggered rule carries the hits it scored. */
  evaluate<T extends { triggered: boolean }>(evaluate: () => T): T & { sanctions?: TSanctionsHit[] };
};

function field(record: unknown, name: string): string | undefined {
  if (!record || typeof record !== "object") return undefined;
  const value = (record as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The client's user a screening is about: false matches are recorded per (user, entity). */
export function screenedUserId(
  subject: string,
  subjectId: string,
  variables: Record<string, unknown>,
): string | undefined {
  if (subject === "user") return subjectId;
  const own = variables[subject] as { user?: unknown } | undefined;
  return field(own, "userId") ?? field(own?.user, "id") ?? field(variables.user, "id");
}

/**
 * Null when no rule of the screening calls sanctionsScore (no query at all). Otherwise one statement
 * reads the lists' version and the screened user's false matches; the index is rebuilt when the
 * version changed. A failure to load the lists makes the sanctions rules error, not the screening.
 */
export async function prepareSanctionsScreening(
  tx: Tx,
  args: {
    clientId: string;
    subject: string;
    subjectId: string;
    variables: Record<string, unknown>;
    conditions: readonly string[];
  },
): Promise<TSanctionsScreening | null> {
  if (!args.conditions.some(usesSanctions)) return null;
  const userId = screenedUserId(args.subject, args.subjectId, args.variables) ?? null;
  let state: TSanctionsState | Error;
  try {
    [state] = await tx.$queryRaw<[TSanctionsState]>(Prisma.sql`
      SELECT (${SANCTIONS_VERSION_SQL}) AS version,
             coalesce((SELECT array_agg("datasetId" || '/' || "entityId") FROM "sanctions_false_matches"
                       WHERE "clientId" = ${args.clientId} AND "userId" = ${userId}), '{}') AS excluded`);
  } catch (err) {
    state = err as Error;
  }
  return sanctionsScreeningFrom(tx, state);
}

/** What prepareSanctionsScreening reads: the lists' version and the screened user's false matches. */
export type TSanctionsState = { version: string; excluded: string[] };

/**
 * prepareSanctionsScreening's read as two columns ("version", "excluded") for a caller's own statement
 * (the raw-SQL screenings read it with the stored row and the aggregates): `clientId` and `userId` are
 * SQL expressions (placeholders); userId is screenedUserId(…) of the screening, or NULL.
 */
export function sanctionsStateColumns(clientId: string, userId: string): string {
  return `(${SANCTIONS_VERSION_SQL.text}) AS "version",
    coalesce((SELECT array_agg("datasetId" || '/' || "entityId") FROM "sanctions_false_matches"
      WHERE "clientId" = ${clientId} AND "userId" = ${userId}), '{}') AS "excluded"`;
}

/** The screening from a state read by the caller (an Error when that read failed). */
export async function sanctionsScreeningFrom(
  tx: Tx,
  state: TSanctionsState | Error,
): Promise<TSanctionsScreening> {
  let evaluation: TSanctionsEvaluation | null = null;
  try {
    if (state instanceof Error) throw state;
    const index = await getSanctionsIndex(tx, state.version);
    evaluation = { index, excluded: new Set(state.excluded) };
  } catch (err) {
    // without an evaluation sanctionsScore throws, and runRules records that on each sanctions rule
    logError("sanctions lists could not be loaded", err);
  }
  return {
    evaluate(evaluate) {
      if (!evaluation) return evaluate();
      const { result, hits } = evaluateWithSanctions(evaluation, evaluate);
      return result.triggered && hits.length > 0 ? { ...result, sanctions: hits } : result;
    },
  };
}

/** The per-rule evaluation wrapper for evaluateRules: undefined when no rule calls sanctionsScore. */
export function sanctionsWrap(
  sanctions: TSanctionsScreening | null,
): (<T extends { triggered: boolean }>(evaluate: () => T) => T) | undefined {
  return sanctions ? (evaluate) => sanctions.evaluate(evaluate) : undefined;
}
