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

function csvField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The import format: a header row, then value,note,expiresAt. */
export function listCsv(exported: TListExport): string {
  const rows = exported.entries.map((e) =>
    [csvField(e.value), csvField(e.note ?? ""), e.expiresAt === null ? "" : String(e.expiresAt)].join(","),
  );
  return ["value,note,expiresAt", ...rows].join("\n") + "\n";
}
