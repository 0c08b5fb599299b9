"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import {
  ENTRIES_PAGE_SIZE,
  listDownloadHref,
  useAddListEntry,
  useListEntries,
  useRemoveListEntry,
  useUploadListCsv,
} from "@/components/lists/hooks";
import { KIND_LABELS, kindLabel } from "@/components/lists/kind-label";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateTime,
  Dialog,
  DoneNote,
  ErrorNote,
  inputClass,
  linkClass,
  Table,
  Td,
} from "@/components/ui";
import { formatNumber } from "@/lib/format";
import type { TAddedListEntry, TListEntryView } from "@/lib/lists/manage-lists";

function AddEntry({ listId, kind }: { listId: string; kind: string }) {
  const [value, setValue] = useState("");
  const [note, setNote] = useState("");
  const [expires, setExpires] = useState("");
  const add = useAddListEntry(listId);
  // The value was in the list already: what it holds, until the admin replaces its note or keeps it.
  const [existing, setExisting] = useState<TAddedListEntry | null>(null);
  const [done, setDone] = useState<{ n: number; text: string } | null>(null);
  const submit = (replace: boolean) =>
    add.mutate(
      { value, note, expiresAt: expires ? new Date(`${expires}T23:59:59`).getTime() : null, replace },
      {
        onSuccess: (entry) => {
          if (entry.outcome === "exists") {
            setExisting(entry);
            return;
          }
          setExisting(null);
          setDone((d) => ({
            n: (d?.n ?? 0) + 1,
            text:
              entry.outcome === "updated"
                ? `Updated the note of ${entry.value}.`
                : `Added ${entry.value} to the list.`,
          }));
          setValue("");
          setNote("");
          setExpires("");
        },
      },
    );
  return (
    <Card title="Add an entry">
      <form
        className="grid grid-cols-1 gap-3 md:grid-cols-[2fr_2fr_1fr_auto] md:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          submit(false);
        }}
      >
        <label className="block text-xs font-medium text-slate-700">
          Value
          <input
            className={inputClass}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder={KIND_LABELS[kind]?.example}
          />
        </label>
        <label className="block text-xs font-medium text-slate-700">
          Note
          <input className={inputClass} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        <label className="block text-xs font-medium text-slate-700">
          Expires (end of day, optional)
          <input
            className={inputClass}
            type="date"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </label>
        <Button type="submit" disabled={add.isPending || !value.trim()}>
          Add entry
        </Button>
      </form>
      {add.isError && (
        <div className="mt-3">
          <ErrorNote>{errorMessage(add.error).replace(/^\/value: /, "")}</ErrorNote>
        </div>
      )}
      {existing && (
        <div
          className="mt-3 space-y-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900"
          role="status"
          data-testid="entry-exists"
        >
          <p className="break-words">
            <bdi>{existing.value}</bdi> is already in the list
            {existing.note ? (
              <>
                {" "}
                with the note “<bdi>{existing.note}</bdi>”
              </>
            ) : (
              " without a note"
            )}
            . Nothing was changed.
          </p>
          <div className="flex gap-2">
            <Button disabled={add.isPending} onClick={() => submit(true)}>
              {note.trim() ? (
                <>
                  Replace its note with “<bdi>{note.trim()}</bdi>”
                </>
              ) : (
                "Remove its note"
              )}
            </Button>
            <Button variant="secondary" onClick={() => setExisting(null)}>
              Keep it as it is
            </Button>
          </div>
        </div>
      )}
      {done && !existing && !add.isError && (
        <div className="mt-3">
          <DoneNote key={done.n}>{done.text}</DoneNote>
        </div>
      )}
    </Card>
  );
}

function UploadDialog({
  listId,
  open,
  onClose,
  onDone,
}: {
  listId: string;
  open: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const upload = useUploadListCsv(listId);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Upload CSV"
      description="A header row with a value column; note and expiresAt (a date such as 2026-12-31, an ISO time or epoch milliseconds) are optional. One bad row and nothing is imported."
      testId="upload-dialog"
    >
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          void file.text().then((csv) =>
            upload.mutate(
              { csv, replace, fileName: file.name },
              {
                onSuccess: (result) => {
                  onDone(
                    `${replace ? "Replaced the entries with" : "Imported"} ${formatNumber(result.entries)} ` +
                      `${result.entries === 1 ? "entry" : "entries"} from ${file.name}.`,
                  );
                  setFile(null);
                  setReplace(false);
                  onClose();
                },
              },
            ),
          );
        }}
      >
        <label className="block text-xs font-medium text-slate-700">
          CSV file
          <input
            className={inputClass}
            type="file"
            accept=".csv,text/csv"
            data-autofocus
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
          Replace all entries (otherwise the file&apos;s entries are added)
        </label>
        {upload.isError && <ErrorNote>{errorMessage(upload.error).replace(/^\/csv: /, "")}</ErrorNote>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!file || upload.isPending}>
            Upload
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ListDetailScreen({ listId }: { listId: string }) {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<TListEntryView | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const entries = useListEntries(listId, { q, page });
  const remove = useRemoveListEntry(listId);
  const list = entries.data?.list;
  const pages = entries.data ? Math.max(1, Math.ceil(entries.data.total / ENTRIES_PAGE_SIZE)) : 1;

  return (
    <div className="space-y-6">
      {list && (
        <div className="flex flex-wrap items-center justify-between gap-3" data-testid="list-summary">
          <p className="text-sm text-slate-700">
            {kindLabel(list.kind)} list ·{" "}
            <span data-testid="entry-count">{formatNumber(list.entryCount)}</span>{" "}
            {list.entryCount === 1 ? "entry" : "entries"}
            {list.description ? ` · ${list.description}` : ""} · rules read it with{" "}
            <code className="font-mono">inList(&quot;{list.name}&quot;, value)</code>
          </p>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setUploading(true)}>
              Upload CSV
            </Button>
            <a
              href={listDownloadHref(listId)}
              download={`${list.name}.csv`}
              className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Download CSV
            </a>
          </div>
        </div>
      )}
      {uploaded && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {uploaded}
        </p>
      )}
      <UploadDialog
        listId={listId}
        open={uploading}
        onClose={() => setUploading(false)}
        onDone={setUploaded}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this entry?"
        description={`"${removing?.value ?? ""}" will no longer match from the next screening on.`}
        confirmLabel="Remove entry"
        danger
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
      {list && <AddEntry listId={listId} kind={list.kind} />}
      <Card
        title="Entries"
        actions={
          <form
            role="search"
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              setQ(search.trim());
              setPage(1);
            }}
          >
            <label className="sr-only" htmlFor="entry-search">
              Search entries
            </label>
            <input
              id="entry-search"
              className={`${inputClass} mt-0 w-64`}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Search values and notes"
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
        }
      >
        {entries.isError && <ErrorNote>{errorMessage(entries.error)}</ErrorNote>}
        {remove.isError && <ErrorNote>{errorMessage(remove.error)}</ErrorNote>}
        <Table
          head={["Value", "Note", "Expires", "Added", ""]}
          empty={
            entries.data?.entries.length === 0 && (
              <p className="p-4 text-sm text-slate-600">
                {q ? `No entry matches “${q}”.` : "No entries yet."}
              </p>
            )
          }
        >
          {entries.data?.entries.map((e) => (
            <tr key={e.id} data-testid="entry-row">
              <Td>
                <div className="w-64 whitespace-normal break-all font-mono text-xs">{e.value}</div>
              </Td>
              <Td>
                <div className="w-56 whitespace-normal">{e.note ?? "—"}</div>
              </Td>
              <Td>
                {e.expiresAt === null ? (
                  "Never"
                ) : (
                  <span className="flex items-center gap-2">
                    <DateTime value={e.expiresAt} />
                    {e.expired && <Badge tone="amber">Expired</Badge>}
                  </span>
                )}
              </Td>
              <Td>
                <DateTime value={e.createdAt} />
              </Td>
              <Td>
                <Button variant="secondary" onClick={() => setRemoving(e)} aria-label={`Remove ${e.value}`}>
                  Remove
                </Button>
              </Td>
            </tr>
          ))}
        </Table>
        {entries.data && entries.data.total > ENTRIES_PAGE_SIZE && (
          <div className="mt-3 flex items-center justify-between text-sm text-slate-700">
            <span>
              Page {formatNumber(page)} of {formatNumber(pages)} · {formatNumber(entries.data.total)} entries
            </span>
            <span className="flex gap-2">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </Button>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </Button>
            </span>
          </div>
        )}
      </Card>
      <p className="text-sm">
        <Link href="/dashboard/lists" className={linkClass}>
          ← All lists
        </Link>
      </p>
    </div>
  );
}
