"use client";

import { useRef, useState } from "react";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateTime,
  Dialog,
  ErrorNote,
  inputClass,
  Table,
  Td,
} from "@/components/ui";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "@/components/api-keys/hooks";
import type { TApiKeyView } from "@/lib/admin/api-keys";

export function ApiKeysScreen() {
  const [name, setName] = useState("");
  // "Create key" is disabled while the request runs, so it cannot take focus back: the name field does.
  const nameRef = useRef<HTMLInputElement>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<TApiKeyView | null>(null);
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();

  return (
    <div className="space-y-6">
      <Card title="Create a key">
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(name, {
              onSuccess: (created) => {
                setName("");
                setShown(created.apiKey);
              },
            });
          }}
        >
          <label className="block flex-1 text-xs font-medium text-slate-700">
            Name
            <input
              ref={nameRef}
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
        {create.isError && <ErrorNote>{create.error.message}</ErrorNote>}
      </Card>
      <Dialog
        open={shown !== null}
        onClose={() => setShown(null)}
        title="Your new API key"
        returnFocusRef={nameRef}
        description="Copy it now: it is stored only as a hash and will not be shown again."
      >
        <code
          className="block select-all break-all rounded bg-slate-100 p-2 font-mono text-sm text-slate-900"
          data-testid="new-api-key"
        >
          {shown}
        </code>
        <div className="mt-4 flex justify-end">
          <Button data-autofocus onClick={() => setShown(null)}>
            Done
          </Button>
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.prefix ?? ""}…?`}
        description="Calls made with this key will fail at once. This cannot be undone."
        confirmLabel="Revoke key"
        danger
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
      {keys.isError && <ErrorNote>{keys.error.message}</ErrorNote>}
      {revoke.isError && <ErrorNote>{revoke.error.message}</ErrorNote>}
      <Table head={["Prefix", "Name", "Created", "Last used", "Status", ""]}>
        {keys.data?.keys.map((k) => (
          <tr key={k.id}>
            <Td className="font-mono">{k.prefix}…</Td>
            <Td>{k.name ?? "—"}</Td>
            <Td>
              <DateTime value={k.createdAt} />
            </Td>
            <Td>{k.lastUsedAt ? <DateTime value={k.lastUsedAt} /> : "Never"}</Td>
            <Td>
              {k.revokedAt ? (
                <Badge tone="red">
                  Revoked <DateTime value={k.revokedAt} dateOnly />
                </Badge>
              ) : (
                <Badge tone="green">Active</Badge>
              )}
            </Td>
            <Td>
              {!k.revokedAt && (
                <Button variant="danger" onClick={() => setRevoking(k)}>
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
