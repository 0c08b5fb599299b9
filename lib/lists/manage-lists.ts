// The admin screens' list operations (docs/decisions.md §10): each change is audited in its transaction.
// Domain functions trust their caller's role check (the dashboard route); tenancy is in every query.
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound, validationError } from "@/lib/errors/domain-error";
import { auditListChange, type TListActor } from "@/lib/lists/audit-list-change";
import { entryKey, entryValue } from "@/lib/lists/entry-key";
import { exportList, listCsv } from "@/lib/lists/export-list";
import { importListEntries, ListImportError, parseListCsv } from "@/lib/lists/import-list-entries";
import type { TCreateList, TListEntryInput, TListKind } from "@/lib/lists/schemas";
import { readCsvText } from "@/lib/sanctions/read-csv";

export type TListView = {
  id: string;
  name: string;
  kind: string;
  description: string;
  entryCount: number;
  createdAt: number;
  updatedAt: number;
};

export type TListEntryView = {
  id: string;
  value: string;
  note: string | null;
  expiresAt: number | null;
  expired: boolean;
  createdAt: number;
};

/** What adding did: a new entry, the note of the same entry replaced, or nothing (it was there already). */
export type TAddedListEntry = TListEntryView & { outcome: "added" | "updated" | "exists" };

function entryView(entry: {
  id: string;
  value: string;
  note: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}): TListEntryView {
  return {
    id: entry.id,
    value: entry.value,
    note: entry.note,
    expiresAt: entry.expiresAt?.getTime() ?? null,
    expired: entry.expiresAt !== null && entry.expiresAt.getTime() <= Date.now(),
    createdAt: entry.createdAt.getTime(),
  };
}

type TListRow = {
  id: string;
  name: string;
  kind: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
};

function listView(row: TListRow, entryCount: number): TListView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    entryCount,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** The client's lists with their entry counts, by name. */
export async function listLists({ clientId }: { clientId: string }): Promise<{ lists: TListView[] }> {
  const [rows, counts] = await Promise.all([
    prisma.list.findMany({ where: { clientId }, orderBy: { name: "asc" } }),
    prisma.listEntry.groupBy({ by: ["listId"], where: { clientId }, _count: { _all: true } }),
  ]);
  const byList = new Map(counts.map((c) => [c.listId, c._count._all]));
  return { lists: rows.map((r) => listView(r, byList.get(r.id) ?? 0)) };
}

async function findList(clientId: string, listId: string) {
  const list = await prisma.list.findFirst({ where: { clientId, id: listId } });
  if (!list) throw notFound("/listId", "List not found");
  return list;
}

export async function createList({
  clientId,
  actor,
  input,
}: {
  clientId: string;
  actor: TListActor;
  input: TCreateList;
}): Promise<TListView> {
  try {
    return await prisma.$transaction(async (tx) => {
      const list = await tx.list.create({
        data: { clientId, name: input.name, kind: input.kind, description: input.description },
      });
      await auditListChange(tx, {
        clientId,
        actor,
        action: "list.created",
        listId: list.id,
        details: { list: list.name, kind: list.kind, description: list.description },
      });
      return listView(list, 0);
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
      throw validationError([`/name: A list named ${input.name} already exists`]);
    throw err;
  }
}

/** One page of a list's entries, optionally only those whose value or note contains `q`. */
export async function searchListEntries({
  clientId,
  listId,
  q,
  page,
  limit,
}: {
  clientId: string;
  listId: string;
  q: string;
  page: number;
  limit: number;
}): Promise<{ list: TListView; entries: TListEntryView[]; total: number; page: number; limit: number }> {
  const list = await findList(clientId, listId);
  const where: Prisma.ListEntryWhereInput = {
    clientId,
    listId,
    ...(q && {
      OR: [{ value: { contains: q, mode: "insensitive" } }, { note: { contains: q, mode: "insensitive" } }],
    }),
  };
  const [rows, total, entryCount] = await Promise.all([
    prisma.listEntry.findMany({ where, orderBy: { key: "asc" }, skip: (page - 1) * limit, take: limit }),
    prisma.listEntry.count({ where }),
    prisma.listEntry.count({ where: { clientId, listId } }),
  ]);
  const now = Date.now();
  return {
    list: listView(list, entryCount),
    entries: rows.map((e) => ({
      id: e.id,
      value: e.value,
      note: e.note,
      expiresAt: e.expiresAt?.getTime() ?? null,
      expired: e.expiresAt !== null && e.expiresAt.getTime() <= now,
      createdAt: e.createdAt.getTime(),
    })),
    total,
    page,
    limit,
  };
}

/**
 * Adds an entry. A value already in the list (the same match key) is left as it is and answered as
 * `exists`, unless `replace` asks to replace its note and expiry (`updated`): a second add never
 * silently overwrites what a colleague wrote.
 */
export async function addListEntry({
  clientId,
  listId,
  actor,
  input,
}: {
  clientId: string;
  listId: string;
  actor: TListActor;
  input: TListEntryInput;
}): Promise<TAddedListEntry> {
  const list = await findList(clientId, listId);
  const kind = list.kind as TListKind;
  const key = entryKey(kind, input.value);
  if ("error" in key) throw validationError([`/value: ${key.error}`]);
  const value = entryValue(kind, input.value);
  return prisma.$transaction(async (tx) => {
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    const existing = await tx.listEntry.findUnique({ where: { listId_key: { listId, key: key.key } } });
    if (existing && !input.replace) return { ...entryView(existing), outcome: "exists" as const };
    if (existing) {
      const entry = await tx.listEntry.update({
        where: { id: existing.id },
        data: { value, note: input.note, expiresAt },
      });
      await auditListChange(tx, {
        clientId,
        actor,
        action: "list.entry_updated",
        listId,
        details: {
          list: list.name,
          value: entry.value,
          from: { note: existing.note, expiresAt: existing.expiresAt?.getTime() ?? null },
          to: { note: entry.note, expiresAt: input.expiresAt ?? null },
        },
      });
      return { ...entryView(entry), outcome: "updated" as const };
    }
    const entry = await tx.listEntry.create({
      data: { clientId, listId, value, key: key.key, note: input.note, expiresAt },
    });
    await auditListChange(tx, {
      clientId,
      actor,
      action: "list.entry_added",
      listId,
      details: { list: list.name, value: entry.value, note: entry.note, expiresAt: input.expiresAt ?? null },
    });
    return { ...entryView(entry), outcome: "added" as const };
  });
}

export async function removeListEntry({
  clientId,
  listId,
  entryId,
  actor,
}: {
  clientId: string;
  listId: string;
  entryId: string;
  actor: TListActor;
}): Promise<{ removed: true }> {
  const list = await findList(clientId, listId);
  return prisma.$transaction(async (tx) => {
    const entry = await tx.listEntry.findFirst({ where: { clientId, listId, id: entryId } });
    if (!entry) throw notFound("/entryId", "Entry not found");
    await tx.listEntry.delete({ where: { id: entry.id } });
    await auditListChange(tx, {
      clientId,
      actor,
      action: "list.entry_removed",
      listId,
      details: { list: list.name, value: entry.value, note: entry.note },
    });
    return { removed: true as const };
  });
}

/** A CSV upload in the CLI's format: adds its entries, or with `replace` swaps them all. */
export async function uploadListCsv({
  clientId,
  listId,
  actor,
  csv,
  replace,
  fileName,
}: {
  clientId: string;
  listId: string;
  actor: TListActor;
  csv: string;
  replace: boolean;
  fileName?: string;
}): Promise<{ list: string; entries: number }> {
  const list = await findList(clientId, listId);
  const label = fileName?.trim() || "upload";
  try {
    const entries = await parseListCsv(readCsvText(csv), list.kind as TListKind, label);
    return await importListEntries({
      clientId,
      name: list.name,
      kind: list.kind as TListKind,
      entries,
      replace,
      actor,
      source: label,
    });
  } catch (err) {
    if (err instanceof ListImportError) throw validationError([`/csv: ${err.message}`]);
    throw err;
  }
}

/** The list as the CSV the import reads (value,note,expiresAt). */
export async function downloadListCsv({
  clientId,
  listId,
}: {
  clientId: string;
  listId: string;
}): Promise<{ fileName: string; csv: string }> {
  const list = await findList(clientId, listId);
  const exported = await exportList({ clientId, name: list.name });
  if (!exported) throw notFound("/listId", "List not found");
  return { fileName: `${list.name}.csv`, csv: listCsv(exported) };
}
