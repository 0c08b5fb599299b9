// `lists import` (CLI) and the dashboard's CSV upload: one parser, one all-or-nothing write.
import { readNeutralized } from "@/lib/csv/write-csv";
import { prisma, type Tx } from "@/lib/db";
import { MAX_EPOCH_MS } from "@/lib/validation/timestamps";
import { Prisma } from "@/lib/generated/prisma/client";
import { auditListChange, type TListActor } from "@/lib/lists/audit-list-change";
import { entryKey } from "@/lib/lists/entry-key";
import { LIST_NAME, type TListKind } from "@/lib/lists/schemas";
import { CsvFormatError, type TCsvRecord } from "@/lib/sanctions/read-csv";

/** A bad file or request: names the line; nothing was imported. */
export class ListImportError extends Error {}

export type TParsedEntry = { value: string; key: string; note: string | null; expiresAt: Date | null };

const BATCH = 2_000;

/** Reads a CSV with a header row (`value` required; `note`, `expiresAt` epoch ms optional). */
export async function parseListCsv(
  records: AsyncIterable<TCsvRecord>,
  kind: TListKind,
  label: string,
): Promise<TParsedEntry[]> {
  const entries: TParsedEntry[] = [];
  const lineOfKey = new Map<string, number>();
  let columns: { value: number; note: number; expiresAt: number } | null = null;
  try {
    for await (const { fields, line } of records) {
      if (fields.length === 1 && fields[0]!.trim() === "") continue;
      const fail = (message: string): never => {
        throw new ListImportError(`${label} line ${line}: ${message}`);
      };
      if (!columns) {
        const header = fields.map((f) => f.trim().toLowerCase());
        if (!header.includes("value"))
          fail(`the header row must name a 'value' column (got ${fields.join(",")})`);
        columns = {
          value: header.indexOf("value"),
          note: header.indexOf("note"),
          expiresAt: header.indexOf("expiresat"),
        };
        continue;
      }
      // an export writes "=x" as "'=x" so that spreadsheets do not run it: read back as written
      const value = readNeutralized(fields[columns.value] ?? "").trim();
      const note = columns.note >= 0 ? readNeutralized(fields[columns.note] ?? "").trim() : "";
      const expiresText = columns.expiresAt >= 0 ? (fields[columns.expiresAt] ?? "").trim() : "";
      const key = entryKey(kind, value);
      if ("error" in key) return fail(key.error);
      if (value.length > 1000) fail("value is longer than 1,000 characters");
      if (note.length > 1000) fail("note is longer than 1,000 characters");
      let expiresAt: Date | null = null;
      if (expiresText !== "") {
        if (!/^\d{1,15}$/.test(expiresText))
          fail(`expiresAt '${expiresText}' is not a time in epoch milliseconds`);
        if (Number(expiresText) > MAX_EPOCH_MS) fail(`expiresAt '${expiresText}' is after the year 9999`);
        expiresAt = new Date(Number(expiresText));
      }
      const first = lineOfKey.get(key.key);
      if (first !== undefined) fail(`'${value}' is the same entry as line ${first}`);
      lineOfKey.set(key.key, line);
      entries.push({ value, key: key.key, note: note || null, expiresAt });
    }
  } catch (err) {
    if (err instanceof CsvFormatError) throw new ListImportError(`${label} ${err.message}`);
    throw err;
  }
  if (!columns) throw new ListImportError(`${label}: the file is empty (expected a header row with 'value')`);
  return entries;
}

/** Inserts (or updates by key) entries of a list, in batches, in the caller's transaction. */
export async function upsertListEntries(
  tx: Tx,
  { clientId, listId, entries }: { clientId: string; listId: string; entries: readonly TParsedEntry[] },
): Promise<void> {
  for (let i = 0; i < entries.length; i += BATCH) {
    const batch = entries.slice(i, i + BATCH);
    await tx.$executeRaw`
      INSERT INTO "list_entries" ("id", "clientId", "listId", "value", "key", "note", "expiresAt")
      SELECT 'le' || md5(random()::text || clock_timestamp()::text || v.key), ${clientId}, ${listId},
             v.value, v.key, v.note, v.expires
      FROM unnest(${batch.map((e) => e.value)}::text[], ${batch.map((e) => e.key)}::text[],
                  ${batch.map((e) => e.note)}::text[], ${batch.map((e) => e.expiresAt)}::timestamptz[])
           AS v(value, key, note, expires)
      ON CONFLICT ("listId", "key") DO UPDATE
        SET "value" = EXCLUDED."value", "note" = EXCLUDED."note", "expiresAt" = EXCLUDED."expiresAt"`;
  }
}

/**
 * Adds the entries to the list (creating it with `kind` when it does not exist), or with `replace`
 * swaps all its entries, in one transaction with its audit row. The list's version bump (a trigger)
 * makes the next screening in every process use the change.
 */
export async function importListEntries({
  clientId,
  name,
  kind,
  entries,
  replace,
  actor,
  source,
}: {
  clientId: string;
  name: string;
  /** Required to create the list; checked against an existing list's kind. */
  kind?: TListKind;
  entries: readonly TParsedEntry[];
  replace: boolean;
  actor: TListActor;
  source: string;
}): Promise<{ list: string; entries: number }> {
  if (!LIST_NAME.test(name)) throw new ListImportError(`list name '${name}' must match ${LIST_NAME.source}`);
  return prisma.$transaction(
    async (tx) => {
      // serialises imports of one list (and its creation)
      await tx.$executeRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${`list:${clientId}:${name}`}))`);
      let list = await tx.list.findUnique({ where: { clientId_name: { clientId, name } } });
      if (list && kind && list.kind !== kind)
        throw new ListImportError(`list '${name}' is a ${list.kind} list, not ${kind}`);
      if (!list) {
        if (!kind) throw new ListImportError(`list '${name}' does not exist`);
        list = await tx.list.create({ data: { clientId, name, kind } });
      }
      if (replace) await tx.listEntry.deleteMany({ where: { listId: list.id } });
      await upsertListEntries(tx, { clientId, listId: list.id, entries });
      await auditListChange(tx, {
        clientId,
        actor,
        action: replace ? "list.entries_replaced" : "list.entries_imported",
        listId: list.id,
        details: { list: name, entries: entries.length, source },
      });
      return { list: name, entries: entries.length };
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}
