import { prisma, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { conflict, DomainError } from "@/lib/errors/domain-error";
import { appendAudit, type TActor } from "@/lib/reports/audit";
import { getAtPath, setAtPath, type TContent, type TLeaf } from "@/lib/reports/content";
import { checkValue } from "@/lib/reports/goaml/check-value";
import type { TGoamlSchema } from "@/lib/reports/goaml/schema";
import { declAt } from "@/lib/reports/goaml/walk";
import { activeSchema, incompleteFor } from "@/lib/reports/goaml-xml";
import { assertEditable, lockReport } from "@/lib/reports/report-access";
import { readReportProfile } from "@/lib/reports/schemas";

/**
 * Dashboard: an officer sets content values. Every value is checked against its element's type and facets in the
 * client's active goAML schema first; one bad value refuses the whole save (details name each path) and nothing is
 * stored. A path may name an element the schema declares under an existing part of the report (an FIU schema can
 * require one the draft does not have yet); an empty value marks a required field missing and drops an optional one.
 */
export async function setReportFields({
  clientId,
  reportId,
  fields,
  actor,
}: {
  clientId: string;
  reportId: string;
  fields: Record<string, string>;
  actor: TActor;
}): Promise<{ incomplete: string[] }> {
  return prisma.$transaction(async (tx) => {
    const row = await lockReport(tx, { clientId, reportId });
    assertEditable(row);
    const client = await tx.client.findUniqueOrThrow({
      where: { id: clientId },
      select: { reportingProfile: true },
    });
    const { schema } = activeSchema(readReportProfile(client.reportingProfile));
    let content = row.content as TContent;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const problems: string[] = [];
    for (const [path, raw] of Object.entries(fields)) {
      const decl = declAt(schema, path);
      if (!decl?.simple) throw conflict(`${path} is not a field of this report`);
      let value: TLeaf | undefined;
      if (raw.trim() === "") value = decl.min >= 1 || getAtPath(content, path) === null ? null : undefined;
      else {
        const checked = checkValue(decl, raw);
        if (!checked.ok) {
          problems.push(`/${path}: ${checked.message}`);
          continue;
        }
        value = checked.value as TLeaf;
      }
      const from = getAtPath(content, path);
      if (from === value) continue;
      const next = setAtPath(content, path, value, { create: true });
      if (!next) throw conflict(`${path} is not a field of this report`);
      content = next;
      changes[path] = { from: from ?? null, to: value ?? null };
    }
    if (problems.length > 0)
      throw new DomainError("validation", "Some values do not fit the goAML schema", problems);
    if (Object.keys(changes).length === 0) return { incomplete: row.incomplete };
    return { incomplete: await storeContent(tx, { clientId, reportId, content, schema, actor, changes }) };
  });
}

/** Stores changed content with its incomplete list and appends the `fields_updated` audit entry; the list. */
export async function storeContent(
  tx: Tx,
  {
    clientId,
    reportId,
    content,
    schema,
    actor,
    changes,
  }: {
    clientId: string;
    reportId: string;
    content: TContent;
    schema: TGoamlSchema;
    actor: TActor;
    changes: Record<string, { from: unknown; to: unknown }>;
  },
): Promise<string[]> {
  const incomplete = incompleteFor(content, schema);
  await tx.report.update({
    where: { clientId_id: { clientId, id: reportId } },
    data: {
      content: content as Prisma.InputJsonValue,
      incomplete,
      updatedAt: new Date(),
      updatedById: actor.id,
    },
  });
  await appendAudit(tx, {
    clientId,
    reportId,
    actor,
    action: "fields_updated",
    changes: { fields: changes },
  });
  return incomplete;
}
