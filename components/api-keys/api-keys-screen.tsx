"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, Button, Card, ErrorNote, Table, Td, formatTime, inputClass } from "@/components/ui";
import { errorText, fetchJson } from "@/lib/admin/fetch-json";
import type { TApiKeyView } from "@/lib/admin/api-keys";

const apiKeyKeys = { all: ["api-keys"] as const };
const apiKeysApi = {
  list: () => fetchJson<{ keys: TApiKeyView[] }>("/dashboard-api/api-keys"),
  create: (name: string) =>
    fetchJson<{ id: string; apiKey: string }>("/dashboard-api/api-keys", { body: { name } }),
  revoke: (id: string) =>
    fetchJson<{ revoked: boolean }>(`/dashboard-api/api-keys/${encodeURIComponent(id)}/revoke`, { body: {} }),
};

export function ApiKeysScreen() {
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [shown, setShown] = useState<string | null>(null);
  const keys = useQuery({ queryKey: apiKeyKeys.all, queryFn: apiKeysApi.list });
  const invalidate = () => void qc.invalidateQueries({ queryKey: apiKeyKeys.all });
  const create = useMutation({
    mutationFn: () => apiKeysApi.create(name),
    onSuccess: (created) => {
      setName("");
      setShown(created.apiKey);
      invalidate();
    },
  });
  const revoke = useMutation({ mutationFn: apiKeysApi.revoke, onSuccess: invalidate });

  return (
    <div className="space-y-6">
      <Card title="Create a key">
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <label className="block flex-1 text-xs font-medium text-slate-600">
            Name
            <input
              className={inputClass}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="production backend"
            />
          </label>
          <Button type="submit" disabled={create.isPending}>
            Create key
          </Button>
        </form>
        {create.isError && <ErrorNote>{errorText(create.error)}</ErrorNote>}
      </Card>
      {shown && (
        <div
          role="dialog"
          aria-modal="true"
          aria-labelledby="key-dialog-title"
          className="fixed inset-0 z-10 flex items-center justify-center bg-slate-900/40"
        >
          <div className="max-w-lg rounded-lg bg-white p-6 shadow-lg">
            <h2 id="key-dialog-title" className="text-lg font-semibold">
              Your new API key
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Copy it now: it is stored only as a hash and will not be shown again.
            </p>
            <code
              className="mt-3 block select-all break-all rounded bg-slate-100 p-2 font-mono text-sm"
              data-testid="new-api-key"
            >
              {shown}
            </code>
            <div className="mt-4 flex justify-end">
              <Button onClick={() => setShown(null)}>Done</Button>
            </div>
          </div>
        </div>
      )}
      {keys.isError && <ErrorNote>{errorText(keys.error)}</ErrorNote>}
      {revoke.isError && <ErrorNote>{errorText(revoke.error)}</ErrorNote>}
      <Table head={["Prefix", "Name", "Created", "Last used", "Status", ""]}>
        {keys.data?.keys.map((k) => (
          <tr key={k.id}>
            <Td className="font-mono">{k.prefix}…</Td>
            <Td>{k.name ?? "—"}</Td>
            <Td>{formatTime(k.createdAt)}</Td>
            <Td>{formatTime(k.lastUsedAt)}</Td>
            <Td>
              {k.revokedAt ? (
                <Badge tone="red">revoked {formatTime(k.revokedAt).slice(0, 10)}</Badge>
              ) : (
                <Badge tone="green">active</Badge>
              )}
            </Td>
            <Td>
              {!k.revokedAt && (
                <Button
                  variant="danger"
                  disabled={revoke.isPending}
                  onClick={() =>
                    window.confirm(`Revoke ${k.prefix}…? Calls with it will fail at once.`) &&
                    revoke.mutate(k.id)
                  }
                >
                  Revoke
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
