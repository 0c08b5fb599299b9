import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { notFound, validationError } from "@/lib/errors/domain-error";
import { assertMayWriteRule } from "@/lib/admin/rule-permissions";
import { writeAudit } from "@/lib/admin/audit";
import { clientListNames } from "@/lib/lists/list-references";
import { RuleImportError, validateRuleDefinition } from "@/lib/rules/validate-rule";
import {
  registerDistinctPairs,
  writeRuleVersion,
  type TWrittenVersion,
} from "@/lib/rules/write-rule-version";

/**
 * Saves a rule from the editor as a new immutable draft version. `ruleId` names an existing rule
 * (an edit; the path id wins over the definition's); without it the definition creates a new rule,
 * and an id already in use is refused rather than silently versioned. A draft never changes what
 * screens: the rule keeps its live version and status until a version is published.
 */
export async function saveRule(
  user: TSessionUser,
  { ruleId, definition }: { ruleId?: string; definition: Record<string, unknown> },
): Promise<Omit<TWrittenVersion, "distinctPairs">> {
  assertMayWriteRule(user, { to: "draft" });
  const clientId = user.clientId;
  const id = ruleId ?? (typeof definition.id === "string" ? definition.id.trim() : "");
  // the status of a draft is `draft`, whatever the form sent: publishing picks the live status
  const raw = { ...definition, id, status: "draft" };
  const [client, existing] = await Promise.all([
    prisma.client.findUniqueOrThrow({ where: { id: clientId }, select: { actions: true } }),
    id
      ? prisma.rule.findUnique({
          where: { clientId_ruleId: { clientId, ruleId: id } },
          select: { id: true },
        })
      : null,
  ]);
  if (ruleId && !existing) throw notFound("/ruleId", "Rule not found");
  if (!ruleId && existing) throw validationError([`/id: A rule with id ${id} already exists`]);

  const result = validateRuleDefinition(raw, client.actions, await clientListNames(clientId));
  if (!result.definition)
    throw new RuleImportError(result.errors.map((message) => ({ ruleId: id, message })));
  const valid = result.definition;
  return prisma.$transaction(async (tx) => {
    const written = await writeRuleVersion(tx, {
      clientId,
      definition: valid,
      actor: user.email,
      publish: false,
    });
    await writeAudit(tx, user, {
      action: existing ? "rule.updated" : "rule.created",
      entityType: "rule",
      entityId: id,
      details: { version: written.version, draft: true, liveVersion: written.liveVersion },
    });
    await registerDistinctPairs(tx, clientId, [written]);
    const { distinctPairs: _pairs, ...answer } = written;
    return answer;
  });
}
