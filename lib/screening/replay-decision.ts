import { prisma } from "@/lib/db";
import { evaluateWithLists, recordedListSource, type TListLookup } from "@/lib/lists/in-list";
import type { TRuleSubject } from "@/lib/rules/schemas";
import { evaluateWithLinks, recordedLinkValues } from "@/lib/links/link-signals";
import {
  evaluateRule,
  loadedRule,
  outcomeOf,
  type TEvaluatedRule,
  type TLoadedRule,
  type TTriggeredRule,
} from "@/lib/screening/evaluate-rules";

export type TReplayResult = {
  riskLevel: string;
  recommendedAction: string;
  triggered: TTriggeredRule[];
  evaluated: TEvaluatedRule[];
  /** True when the replay reproduces the stored response exactly. */
  matchesStored: boolean;
};

/**
 * Re-evaluates a stored decision with the rule versions it recorded and the aggregate values it
 * used (not recomputed: history may have changed since). Null when the decision is unknown.
 */
export async function replayDecision({
  clientId,
  decisionId,
}: {
  clientId: string;
  decisionId: string;
}): Promise<TReplayResult | null> {
  const decision = await prisma.decision.findFirst({ where: { clientId, id: decisionId } });
  if (!decision) return null;
  const recorded = decision.evaluated as unknown as TEvaluatedRule[];
  const aggregates = decision.aggregates as Record<string, Record<string, number | null>>;
  const input = decision.input as {
    variables?: Record<string, unknown>;
    lists?: TListLookup[];
    links?: Record<string, Record<string, number>>;
  };
  const versions = await prisma.ruleVersion.findMany({
    where: { clientId, id: { in: recorded.map((e) => e.versionId) } },
    include: { rule: { select: { ruleId: true } } },
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  const subject = decision.subjectType as TRuleSubject;

  const rules: TLoadedRule[] = [];
  // inList and links.* answer what they answered then (lists and links may have changed since)
  const {
    result: { result: evaluated },
  } = evaluateWithLinks(recordedLinkValues(input.links), () =>
    evaluateWithLists(recordedListSource(input.lists ?? []), () =>
      recorded.map((entry) => {
        const v = byId.get(entry.versionId);
        if (!v) return { ...entry, triggered: false, error: "rule version no longer exists" };
        // the status the rule had when screened, not the version's own (a later status edit is a new version)
        const rule = loadedRule({ ruleRef: v.ruleRef, ruleId: v.rule.ruleId, status: entry.status }, v);
        rules.push(rule);
        // an aggregate that could not be computed stays an error: there is no value to replay
        if (entry.error?.startsWith("aggregates.")) return { ...entry, triggered: false };
        return evaluateRule(subject, rule, input.variables ?? {}, {
          values: aggregates[v.id] ?? {},
          errors: {},
        });
      }),
    ),
  );
  const { riskLevel, recommendedAction, triggered } = outcomeOf(rules, evaluated);
  const stored = decision.response as {
    riskLevel: string;
    recommendedAction: string;
    triggered: TTriggeredRule[];
  };
  const matchesStored =
    JSON.stringify({ riskLevel, recommendedAction, triggered }) ===
    JSON.stringify({
      riskLevel: stored.riskLevel,
      recommendedAction: stored.recommendedAction,
      triggered: stored.triggered,
    });
  return { riskLevel, recommendedAction, triggered, evaluated, matchesStored };
}
