"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useCreateList, useLists } from "@/components/lists/hooks";
import { KIND_LABELS, kindLabel } from "@/components/lists/kind-label";
import { Button, Card, DateTime, Dialog, ErrorNote, inputClass, linkClass, Table, Td } from "@/components/ui";
import { formatNumber } from "@/lib/format";
import { LIST_KINDS } from "@/lib/lists/schemas";

function CreateListDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<string>("email");
  const [description, setDescription] = useState("");
  const create = useCreateList();
  return (
    <Dialog open={open} onClose={onClose} title="New list" testId="create-list-dialog">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { name: name.trim(), kind, description },
            { onSuccess: (list) => router.push(`/dashboard/lists/${list.id}`) },
          );
        }}
      >
        <label className="block text-xs font-medium text-slate-700">
          Name (used in rules: <code>inList(&quot;{name.trim() || "name"}&quot;, value)</code>)
          <input
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="blocked_emails"
            data-autofocus
            required
          />
        </label>
        <label className="block text-xs font-medium text-slate-700">
          Kind of values
          <select className={inputClass} value={kind} onChange={(e) => setKind(e.target.value)}>
            {LIST_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
          <span className="mt-1 block font-normal text-slate-600">
            For example: {KIND_LABELS[kind]?.example}
          </span>
        </label>
        <label className="block text-xs font-medium text-slate-700">
          Description
          <input
            className={inputClass}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        {create.isError && <ErrorNote>{errorMessage(create.error)}</ErrorNote>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || !name.trim()}>
            Create list
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ListsScreen() {
  const lists = useLists();
  const [creating, setCreating] = useState(false);
  return (
    <div className="space-y-6">
      <CreateListDialog open={creating} onClose={() => setCreating(false)} />
      <Card
        title="Lists"
        actions={
          <Button onClick={() => setCreating(true)} data-testid="new-list">
            New list
          </Button>
        }
      >
        {lists.isError && <ErrorNote>{errorMessage(lists.error)}</ErrorNote>}
        <Table
          head={["Name", "Kind", "Description", "Entries", "Last changed"]}
          empty={
            lists.data?.lists.length === 0 && (
              <p className="p-4 text-sm text-slate-600">
                No lists yet. Create one, or import one with the CLI.
              </p>
            )
          }
        >
          {lists.data?.lists.map((l) => (
            <tr key={l.id} data-testid="list-row">
              <Td>
                <Link href={`/dashboard/lists/${l.id}`} className={`${linkClass} font-mono`}>
                  {l.name}
                </Link>
              </Td>
              <Td>{kindLabel(l.kind)}</Td>
              <Td>
                <div className="w-80 whitespace-normal">{l.description || "—"}</div>
              </Td>
              <Td className="text-right tabular-nums">{formatNumber(l.entryCount)}</Td>
              <Td>
                <DateTime value={l.updatedAt} />
              </Td>
            </tr>
          ))}
        </Table>
      </Card>
    </div>
  );
}
