import { ruleHits, screenings } from "@/lib/ops/metrics";
import type { Pool, PoolClient } from "pg";
import { evaluateWithLists, liveListSource, type TListLookup } from "@/lib/lists/in-list";
import type { ListIndex } from "@/lib/lists/list-index";
import {
  prepareSanctionsScreening,
  sanctionsScreeningFrom,
  sanctionsWrap,
  type TSanctionsState,
} from "@/lib/sanctions/prepare-sanctions-screening";
import type { TAggregateValue } from "@/lib/screening/aggregates";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import { rawTx } from "@/lib/screening/sql/statements";
import { evaluateRules, type TSubject } from "@/lib/screening/run-rules";
import { readScreeningLinks, withLinks } from "@/lib/links/screening-links";

// The evaluation of every screening (transaction, user, merchant, payment instrument, event,
// /v1/transaction/update), in memory: the caller reads the aggregates, this evaluates, and the
// caller's write statement stores the decision (decisionWrite in sql/decision-write.ts, or the
// transaction's own write).

export type TDecided = ReturnType<typeof evaluateRules> & {
  lookups: readonly TListLookup[];
  /** The links.* values each rule used, by version id (recorded on the decision). */
  links: Record<string, Record<string, number>>;
};

/**
 * Sanctions, lists and rules. Sanctions: from `sanctionsState` when the caller read it
 * in its own statement (`sanctionsStateColumns`; null when no rule calls sanctionsScore), otherwise one
 * statement here, only when a rule calls sanctionsScore. Links: one statement, only when a rule calls links.*.
 */
export async function decide(
  db: Pick<Pool, "query"> | PoolClient,
  {
    clientId,
    subject,
    subjectId,
    variables,
    rules,
    lists,
    values,
    compileErrors,
    sanctionsState,
  }: {
    clientId: string;
    subject: TSubject;
    subjectId: string;
    variables: Record<string, unknown>;
    rules: readonly TLoadedRule[];
    lists: ReadonlyMap<string, ListIndex>;
    values: ReadonlyMap<string, TAggregateValue>;
    compileErrors: ReadonlyMap<string, string>;
    sanctionsState?: TSanctionsState | null;
  },
): Promise<TDecided> {
  const sanctions =
    sanctionsState === undefined
      ? await prepareSanctionsScreening(rawTx(db), {
          clientId,
          subject,
          subjectId,
          variables,
          conditions: rules.map((r) => r.condition),
        })
      : sanctionsState && (await sanctionsScreeningFrom(rawTx(db), sanctionsState));
  const links = await readScreeningLinks(rawTx(db), { clientId, subject, subjectId, variables, rules });
  const {
    result: { result, lookups },
    used,
  } = withLinks(links, sanctionsWrap(sanctions), (wrap) =>
    evaluateWithLists(liveListSource(lists), () =>
      evaluateRules(rules, subject, variables, values, compileErrors, wrap),
    ),
  );
  screenings.inc({ subject, risk_level: result.riskLevel, action: result.recommendedAction });
  for (const hit of result.triggered) ruleHits.inc({ rule: hit.id });
  return { ...result, lookups, links: used };
}
