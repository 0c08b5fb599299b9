import { prisma, type Tx } from "@/lib/db";
import { DomainError } from "@/lib/errors/domain-error";
import type { TActor } from "@/lib/reports/audit";
import { getAtPath, type TContent, type TContentNode } from "@/lib/reports/content";
import { elementsOf } from "@/lib/reports/goaml/schema";
import { addElement, itemDecl, removeElement } from "@/lib/reports/goaml/structure";
import { contentKey, declAt } from "@/lib/reports/goaml/walk";
import { activeSchema } from "@/lib/reports/goaml-xml";
import { prefillElement } from "@/lib/reports/prefill-element";
import { assertEditable, lockReport } from "@/lib/reports/report-access";
import { readReportProfile } from "@/lib/reports/schemas";
import { storeContent } from "@/lib/reports/set-report-fields";
import type { TUser } from "@/lib/users/schemas";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";

export type TStructureChange =
  { op: "add"; parents: string[]; element: string } | { op: "remove"; paths: string[] };

/** The stored user a part of the report describes: the institution's own client in a transaction or activity. */
async function subjectUser(
  tx: Tx,
  clientId: string,
  report: { userId: string | null },
  content: TContent,
  path: string,
): Promise<Partial<TUser> | null> {
  let userId: string | null = null;
  const inTx = /^transactions\[(\d+)\]\.t_(from|to)_my_client\./.exec(path);
  if (inTx) {
    const number = getAtPath(content, `transactions[${inTx[1]}].transactionnumber`);
    if (typeof number === "string") {
      const row = (
        await readStoredTransaction(tx, clientId, number, (where) =>
          tx.transaction.findUnique({ where, select: { userId: true } }),
        )
      )?.row;
      userId = row?.userId ?? null;
    }
  } else if (/^activity\.report_parties\[\d+\]\.person_my_client/.test(path)) userId = report.userId;
  if (!userId) return null;
  const user = await tx.user.findUnique({
    where: { clientId_id: { clientId, id: userId } },
    select: { data: true },
  });
  return (user?.data as Partial<TUser> | undefined) ?? null;
}

/**
 * Dashboard: an officer adds an element the schema allows (under each of `parents`: a grouped person is changed
 * everywhere it appears), prefilled from the stored user where the part describes the institution's client, or
 * removes optional elements and list items. A removal that would leave the file lacking something the schema
 * requires is refused, and nothing is stored.
 */
export async function editReportStructure({
  clientId,
  reportId,
  change,
  actor,
}: {
  clientId: string;
  reportId: string;
  change: TStructureChange;
  actor: TActor;
}): Promise<{ incomplete: string[]; paths: string[] }> {
  return prisma.$transaction(async (tx) => {
    const row = await lockReport(tx, { clientId, reportId });
    assertEditable(row);
    const client = await tx.client.findUniqueOrThrow({
      where: { id: clientId },
      select: { reportingProfile: true },
    });
    const profile = readReportProfile(client.reportingProfile);
    const { schema } = activeSchema(profile);
    let content = row.content as TContent;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const problems: string[] = [];
    const targets = change.op === "add" ? change.parents : change.paths;
    if (targets.length === 0 || targets.length > 500)
      throw new DomainError("validation", "Name between 1 and 500 places to change", [
        "/paths: 1 to 500 paths",
      ]);
    if (change.op === "add") {
      for (const parent of change.parents) {
        const holder = parent ? declAt(schema, parent) : schema.report;
        const decl = elementsOf(holder?.complex).find((d) => d.name === change.element);
        const existing = parent ? getAtPath(content, parent) : content;
        const current =
          existing && typeof existing === "object" && !Array.isArray(existing)
            ? existing[contentKey(change.element)]
            : undefined;
        const siblings: TContentNode[] = Array.isArray(current)
          ? current
          : current === undefined
            ? []
            : [current];
        const user = decl ? await subjectUser(tx, clientId, row, content, `${parent}.`) : null;
        const prefill = decl ? prefillElement(itemDecl(decl), profile, user, siblings) : undefined;
        const result = addElement(content, schema, parent, change.element, prefill);
        if (!result.ok) {
          problems.push(`/${parent || change.element}: ${result.message}`);
          continue;
        }
        content = result.content;
        changes[result.path] = { from: null, to: getAtPath(content, result.path) ?? null };
      }
    } else {
      // Later list items first, so an earlier removal does not move the items still to remove.
      const ordered = [...change.paths].sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
      for (const path of ordered) {
        const from = getAtPath(content, path);
        const result = removeElement(content, schema, path);
        if (!result.ok) {
          problems.push(`/${path}: ${result.message}`);
          continue;
        }
        content = result.content;
        changes[path] = { from: from ?? null, to: null };
      }
    }
    if (problems.length > 0)
      throw new DomainError("validation", "The report's structure was not changed", problems);
    const incomplete = await storeContent(tx, { clientId, reportId, content, schema, actor, changes });
    return { incomplete, paths: Object.keys(changes) };
  });
}
