import { csvDocument } from "@/lib/csv/write-csv";
import { prisma } from "@/lib/db";

export type TListExport = {
  list: string;
  kind: string;
  entries: Array<{ value: string; note: string | null; expiresAt: number | null }>;
};

/** Every entry of a list (expired ones included, so an export re-imports as is); null when unknown. */
export async function exportList({
  clientId,
  name,
}: {
  clientId: string;
  name: string;
}): Promise<TListExport | null> {
  const list = await prisma.list.findUnique({ where: { clientId_name: { clientId, name } } });
  if (!list) return null;
  const entries = await prisma.listEntry.findMany({
    where: { clientId, listId: list.id },
    orderBy: { key: "asc" },
    select: { value: true, note: true, expiresAt: true },
  });
  return {
    list: list.name,
    kind: list.kind,
    entries: entries.map((e) => ({
      value: e.value,
      note: e.note,
      expiresAt: e.expiresAt?.getTime() ?? null,
    })),
  };
}

/** The import format: a header row, then value,note,expiresAt (formula-like cells neutralised). */
export function listCsv(exported: TListExport): string {
  return csvDocument(
    ["value", "note", "expiresAt"],
    exported.entries.map((e) => [e.value, e.note ?? "", e.expiresAt]),
  );
}
