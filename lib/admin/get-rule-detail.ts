import type { TSessionUser } from "@/lib/auth/session";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TPerson } from "@/lib/format";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { isScreening, versionToDefinition } from "@/lib/rules/write-rule-version";

export type TRuleVersionView = {
  id: string;
  version: number;
  createdAt: number;
  /** Who saved the version (null for an imported one): display name first, the email on hover. */
  createdBy: TPerson | null;
  /** The change note of the version's last publication, who published it and when. */
  published: { at: number; by: TPerson | null; note: string | null } | null;
  /** The version screening uses (in the rule's status, when that status is evaluated). */
  isLive: boolean;
  definition: TRuleDefinition;
};

export type TRuleDetail = {
  ruleId: string;
  /** The live version's status (active, dry-run, muted), or why nothing screens (inactive, archived, draft). */
  status: string;
  subject: string;
  currentVersion: number;
  liveVersion: number | null;
  /** Whether screenings evaluate the rule now. */
  screening: boolean;
  /** The version the editor opens: the newest draft saved after the live version, else the live one. */
  editingVersion: number;
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
  const [rule, actions] = await Promise.all([
    prisma.rule.findUnique({
      where: { clientId_ruleId: { clientId: user.clientId, ruleId } },
      select: {
        ruleId: true,
        status: true,
        subject: true,
        currentVersion: true,
        liveVersion: true,
        versions: { orderBy: { version: "desc" }, take: MAX_VERSIONS },
      },
    }),
    clientRuleActions(user),
  ]);
  if (!rule) throw notFound("/ruleId", "Rule not found");
  const people = await resolvePeople({
    clientId: user.clientId,
    emails: rule.versions.flatMap((v) => [v.createdBy, v.publishedBy]),
  });
  const newest = rule.versions[0]?.version ?? rule.currentVersion;
  return {
    ruleId: rule.ruleId,
    status: rule.status,
    subject: rule.subject,
    currentVersion: rule.currentVersion,
    liveVersion: rule.liveVersion,
    screening: isScreening(rule),
    editingVersion: rule.liveVersion !== null && newest <= rule.liveVersion ? rule.liveVersion : newest,
    versions: rule.versions.map((v) => ({
      id: v.id,
      version: v.version,
      createdAt: v.createdAt.getTime(),
      createdBy: people.byEmail(v.createdBy),
      published: v.publishedAt
        ? { at: v.publishedAt.getTime(), by: people.byEmail(v.publishedBy), note: v.publishNote }
        : null,
      isLive: v.version === rule.liveVersion,
      definition: versionToDefinition(rule.ruleId, v),
    })),
    enabledActions: actions,
  };
}

/** The recommended actions the client's rules may use, for the rule editor. */
export async function clientRuleActions(user: TSessionUser): Promise<string[]> {
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: user.clientId },
    select: { actions: true },
  });
  return enabledActions(client.actions);
}

export function enabledActions(actions: readonly string[]): string[] {
  // an empty list is read as all actions, as the rule engine does
  return actions.length ? [...actions] : [...RECOMMENDED_ACTIONS];
}
