"use client";

import { useState } from "react";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateTime,
  EnumLabel,
  ErrorNote,
  inputClass,
  Table,
  Td,
} from "@/components/ui";
import { useCreateMember, useMemberAction, useTeam } from "@/components/team/hooks";
import type { TTeamMember } from "@/lib/admin/team";
import { formatEnum, formatPerson } from "@/lib/format";

function SignInState({ member }: { member: TTeamMember }) {
  if (member.disabledAt) return <Badge tone="red">Disabled</Badge>;
  if (member.locked) return <Badge tone="red">Sign-in locked</Badge>;
  if (member.blockedUntil)
    return (
      <Badge tone="amber">
        Sign-in paused until <DateTime value={member.blockedUntil} />
      </Badge>
    );
  return <Badge tone="green">Active</Badge>;
}

const ROLES = ["reviewer", "reporting_officer", "admin"];
const EMPTY_FORM = { email: "", name: "", role: "reviewer", password: "" };

export function TeamScreen({ selfId }: { selfId: string }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const [disabling, setDisabling] = useState<TTeamMember | null>(null);
  const members = useTeam();
  const create = useCreateMember();
  const disable = useMemberAction("disable");
  const unlock = useMemberAction("unlock");
  const enable = useMemberAction("enable");

  return (
    <div className="space-y-6">
      {members.isError && <ErrorNote>{members.error.message}</ErrorNote>}
      {disable.isError && <ErrorNote>{disable.error.message}</ErrorNote>}
      {unlock.isError && <ErrorNote>{unlock.error.message}</ErrorNote>}
      {enable.isError && <ErrorNote>{enable.error.message}</ErrorNote>}
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling ? formatPerson(disabling) : ""}?`}
        description="They are signed out at once and can no longer sign in."
        confirmLabel="Disable"
        danger
        pending={disable.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && disable.mutate(disabling.id, { onSettled: () => setDisabling(null) })}
      />
      <Table head={["Name", "Email", "Role", "Created", "Status", ""]}>
        {members.data?.members.map((m) => (
          <tr key={m.id} data-testid="team-row">
            <Td>{m.name ?? "—"}</Td>
            <Td>{m.email}</Td>
            <Td>
              <EnumLabel value={m.role} />
            </Td>
            <Td>
              <DateTime value={m.createdAt} dateOnly />
            </Td>
            <Td>
              <SignInState member={m} />
            </Td>
            <Td className="space-x-2">
              {(m.locked || m.blockedUntil) && (
                <Button variant="secondary" disabled={unlock.isPending} onClick={() => unlock.mutate(m.id)}>
                  Unlock sign-in
                </Button>
              )}
              {m.disabledAt && (
                <Button variant="secondary" disabled={enable.isPending} onClick={() => enable.mutate(m.id)}>
                  Enable
                </Button>
              )}
              {!m.disabledAt && m.id !== selfId && (
                <Button variant="secondary" onClick={() => setDisabling(m)}>
                  Disable
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </Table>
      <Card title="Add a team member">
        <form
          className="grid grid-cols-1 gap-3 md:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { ...form, name: form.name || undefined },
              { onSuccess: () => setForm(EMPTY_FORM) },
            );
          }}
        >
          <label className="text-xs font-medium text-slate-700">
            Email
            <input
              type="email"
              className={inputClass}
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
          </label>
          <label className="text-xs font-medium text-slate-700">
            Name
            <input
              className={inputClass}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
          </label>
          <label className="text-xs font-medium text-slate-700">
            Role
            <select
              className={inputClass}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value })}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {formatEnum(r)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs font-medium text-slate-700">
            Initial password (at least 8 characters)
            <input
              type="password"
              autoComplete="new-password"
              className={inputClass}
              value={form.password}
              onChange={(e) => setForm({ ...form, password: e.target.value })}
            />
          </label>
          <div className="md:col-span-2">
            {create.isError && <ErrorNote>{create.error.message}</ErrorNote>}
            {create.isSuccess && (
              <p className="text-sm text-emerald-800">
                User created. Share the initial password through a safe channel.
              </p>
            )}
            <Button
              type="submit"
              className="mt-2"
              disabled={create.isPending || !form.email || !form.password}
            >
              Create user
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
