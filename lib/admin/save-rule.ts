import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { validationError } from "@/lib/http/errors";
import { assertMayWriteRule } from "@/lib/admin/rule-permissions";
import { writeAudit } from "@/lib/admin/audit";
import { clientListNames } from "@/lib/lists/list-references";
import { RuleImportError, validateRuleDefinition } from "@/lib/rules/validate-rule";
import { writeRuleVersion, type TWrittenVersion } from "@/lib/rules/write-rule-version";
import { notFound } from "@/lib/http/errors";

/**
 * Saves a rule from the editor as a new immutable version. `ruleId` names an existing rule (an
 * edit; the path id wins over the definition's); without it the definition creates a new rule,
 * and an id already in use is refused rather than silently versioned.
 */
export async function saveRule(
  user: TSessionUser,
  { ruleId, definition }: { ruleId?: string; definition: Record<string, unknown> },
): Promise<TWrittenVersion> {
  const clientId = user.clientId;
  const id = ruleId ?? (typeof definition.id === "string" ? definition.id.trim() : "");
  const raw = { ...definition, id };
  const [client, existing] = await Promise.all([
    prisma.client.findUniqueOrThrow({ where: { id: clientId }, select: { actions: true } }),
    id
      ? prisma.rule.findUnique({
          where: { clientId_ruleId: { clientId, ruleId: id } },
          select: { status: true },
        })
      : null,
  ]);
  if (ruleId && !existing) throw notFound("/ruleId", "Rule not found");
  if (!ruleId && existing) throw validationError([`/id: A rule with id ${id} already exists`]);
  assertMayWriteRule(user, { from: existing?.status, to: String(definition.status ?? "") });

  const result = validateRuleDefinition(raw, client.actions, await clientListNames(clientId));
  if (!result.definition)
    throw new RuleImportError(result.errors.map((message) => ({ ruleId: id, message })));
  const valid = result.definition;
  return prisma.$transaction(async (tx) => {
    // re-read under the transaction: a concurrent publish must not let a reviewer edit an active rule
    const current = await tx.rule.findUnique({
      where: { clientId_ruleId: { clientId, ruleId: id } },
      select: { status: true },
    });
    assertMayWriteRule(user, { from: current?.status, to: valid.status });
    const written = await writeRuleVersion(tx, { clientId, definition: valid, actor: user.email });
    await writeAudit(tx, user, {
      action: current ? "rule.updated" : "rule.created",
      entityType: "rule",
      entityId: id,
      details: { version: written.version, status: written.status },
    });
    return written;
  });
}
