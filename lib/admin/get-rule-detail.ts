import type { TSessionUser } from "@/lib/auth/session";
import { RECOMMENDED_ACTIONS } from "@/lib/clients/schemas";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { versionToDefinition } from "@/lib/rules/write-rule-version";

export type TRuleVersionView = {
  id: string;
  version: number;
  createdAt: number;
  createdBy: string | null;
  definition: TRuleDefinition;
};

export type TRuleDetail = {
  ruleId: string;
  status: string;
  subject: string;
  currentVersion: number;
  versions: TRuleVersionView[];
  /** Actions the client has enabled: the only ones a rule may recommend. */
  enabledActions: string[];
};

const MAX_VERSIONS = 200;

/** A rule with its newest versions first (at most 200), scoped to the user's client. */
export async function getRuleDetail(
  user: TSessionUser,
  { ruleId }: { ruleId: string },
): Promise<TRuleDetail> {
  const [rule, client] = await Promise.all([
    prisma.rule.findUnique({
      where: { clientId_ruleId: { clientId: user.clientId, ruleId } },
      select: {
        ruleId: true,
        status: true,
        subject: true,
        currentVersion: true,
        versions: { orderBy: { version: "desc" }, take: MAX_VERSIONS },
      },
    }),
    prisma.client.findUniqueOrThrow({ where: { id: user.clientId }, select: { actions: true } }),
  ]);
  if (!rule) throw notFound("/ruleId", "Rule not found");
  return {
    ruleId: rule.ruleId,
    status: rule.status,
    subject: rule.subject,
    currentVersion: rule.currentVersion,
    versions: rule.versions.map((v) => ({
      id: v.id,
      version: v.version,
      createdAt: v.createdAt.getTime(),
      createdBy: v.createdBy,
      definition: versionToDefinition(rule.ruleId, v),
    })),
    enabledActions: enabledActions(client.actions),
  };
}

export function enabledActions(actions: readonly string[]): string[] {
  // an empty list is read as all actions, as the rule engine does
  return actions.length ? [...actions] : [...RECOMMENDED_ACTIONS];
}
