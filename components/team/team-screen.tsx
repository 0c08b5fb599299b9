"use client";

import { useState } from "react";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateTime,
  DoneNote,
  EnumLabel,
  ErrorNote,
  inputClass,
  Table,
  Td,
} from "@/components/ui";
import {
  useChangeRole,
  useCreateMember,
  useMemberAction,
  useResetPassword,
  useTeam,
} from "@/components/team/hooks";
import type { TTeamMember } from "@/lib/admin/team";
import { formatEnum, formatPerson } from "@/lib/format";

function SignInState({ member }: { member: TTeamMember }) {
  if (member.disabledAt) return <Badge tone="red">Disabled</Badge>;
  if (member.mustChangePassword) return <Badge tone="amber">Password reset: sets a new one at sign-in</Badge>;
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

const ROLE_EFFECT: Record<string, string> = {
  admin: "manages the team, API keys, webhooks, lists, settings and rules, and sees the audit trail",
  reviewer: "works cases and alerts and drafts rules",
  reporting_officer: "reads the reviewers' work and files regulatory reports",
};
const EMPTY_FORM = { email: "", name: "", role: "reviewer", password: "" };

export function TeamScreen({ selfId }: { selfId: string }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const [disabling, setDisabling] = useState<TTeamMember | null>(null);
  const [roleChange, setRoleChange] = useState<{ member: TTeamMember; role: string } | null>(null);
  const [resetting, setResetting] = useState<TTeamMember | null>(null);
  const [issued, setIssued] = useState<{ member: TTeamMember; password: string } | null>(null);
  const [roleDone, setRoleDone] = useState<{ n: number; text: string } | null>(null);
  const changeRole = useChangeRole();
  const reset = useResetPassword();
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
      {changeRole.isError && <ErrorNote>{changeRole.error.message}</ErrorNote>}
      {reset.isError && <ErrorNote>{reset.error.message}</ErrorNote>}
      {roleDone && !changeRole.isError && <DoneNote key={roleDone.n}>{roleDone.text}</DoneNote>}
      {issued && (
        <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="temporary-password">
          Temporary password for <bdi>{formatPerson(issued.member)}</bdi>, shown only now:{" "}
          <code className="select-all font-mono">{issued.password}</code>. Pass it on through a safe channel;
          they must set their own password when they sign in with it.
        </div>
      )}
      <ConfirmDialog
        open={roleChange !== null}
        title={`Make ${roleChange ? formatPerson(roleChange.member) : ""} ${roleChange ? formatEnum(roleChange.role) : ""}?`}
        description={
          roleChange
            ? `From ${formatEnum(roleChange.member.role)} to ${formatEnum(roleChange.role)}: a ${formatEnum(roleChange.role).toLowerCase()} ${ROLE_EFFECT[roleChange.role] ?? ""}. They are signed out at once and sign in again with it.`
            : ""
        }
        confirmLabel="Change role"
        pending={changeRole.isPending}
        onClose={() => setRoleChange(null)}
        onConfirm={() =>
          roleChange &&
          changeRole.mutate(
            { id: roleChange.member.id, role: roleChange.role },
            {
              onSuccess: () =>
                setRoleDone((d) => ({
                  n: (d?.n ?? 0) + 1,
                  text: `${formatPerson(roleChange.member)} is now ${formatEnum(roleChange.role)}.`,
                })),
              onSettled: () => setRoleChange(null),
            },
          )
        }
      />
      <ConfirmDialog
        open={resetting !== null}
        title={`Reset the password of ${resetting ? formatPerson(resetting) : ""}?`}
        description="Their current password stops working at once. You get a temporary password to pass on; at their next sign-in they must choose a new one."
        confirmLabel="Reset password"
        danger
        pending={reset.isPending}
        onClose={() => setResetting(null)}
        onConfirm={() =>
          resetting &&
          reset.mutate(resetting.id, {
            onSuccess: (r) => setIssued({ member: resetting, password: r.temporaryPassword }),
            onSettled: () => setResetting(null),
          })
        }
      />
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
            <Td>
              <div className="max-w-[12rem] truncate" title={m.name ?? undefined}>
                <bdi>{m.name ?? "—"}</bdi>
              </div>
            </Td>
            <Td>
              <div className="max-w-[14rem] truncate" title={m.email}>
                {m.email}
              </div>
            </Td>
            <Td>
              {m.id === selfId ? (
                <EnumLabel value={m.role} />
              ) : (
                <select
                  aria-label={`Role of ${formatPerson(m)}`}
                  className={inputClass}
                  value={m.role}
                  data-testid="member-role"
                  onChange={(e) => setRoleChange({ member: m, role: e.target.value })}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {formatEnum(r)}
                    </option>
                  ))}
                </select>
              )}
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
              {m.id !== selfId && (
                <Button variant="secondary" onClick={() => setResetting(m)}>
                  Reset password…
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
