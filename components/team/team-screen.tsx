"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, Button, Card, ErrorNote, Table, Td, formatTime, inputClass } from "@/components/ui";
import { errorText, fetchJson } from "@/lib/admin/fetch-json";
import type { TTeamMember } from "@/lib/admin/team";

const teamKeys = { all: ["team"] as const };
const teamApi = {
  list: () => fetchJson<{ members: TTeamMember[] }>("/dashboard-api/team"),
  create: (input: { email: string; name?: string; role: string; password: string }) =>
    fetchJson<{ userId: string }>("/dashboard-api/team", { body: input }),
  disable: (id: string) =>
    fetchJson<{ disabled: boolean }>(`/dashboard-api/team/${encodeURIComponent(id)}/disable`, { body: {} }),
  unlock: (id: string) =>
    fetchJson<{ unlocked: boolean }>(`/dashboard-api/team/${encodeURIComponent(id)}/unlock`, { body: {} }),
};

function SignInState({ member }: { member: TTeamMember }) {
  if (member.disabledAt) return <Badge tone="red">disabled</Badge>;
  if (member.locked) return <Badge tone="red">sign-in locked</Badge>;
  if (member.blockedUntil)
    return <Badge tone="amber">sign-in paused until {formatTime(member.blockedUntil).slice(11)}</Badge>;
  return <Badge tone="green">active</Badge>;
}

const ROLES = ["reviewer", "reporting_officer", "admin"];

export function TeamScreen({ selfId }: { selfId: string }) {
  const qc = useQueryClient();
  const [form, setForm] = useState({ email: "", name: "", role: "reviewer", password: "" });
  const members = useQuery({ queryKey: teamKeys.all, queryFn: teamApi.list });
  const invalidate = () => void qc.invalidateQueries({ queryKey: teamKeys.all });
  const create = useMutation({
    mutationFn: () => teamApi.create({ ...form, name: form.name || undefined }),
    onSuccess: () => {
      setForm({ email: "", name: "", role: "reviewer", password: "" });
      invalidate();
    },
  });
  const disable = useMutation({ mutationFn: teamApi.disable, onSuccess: invalidate });
  const unlock = useMutation({ mutationFn: teamApi.unlock, onSuccess: invalidate });

  return (
    <div className="space-y-6">
      {members.isError && <ErrorNote>{errorText(members.error)}</ErrorNote>}
      {disable.isError && <ErrorNote>{errorText(disable.error)}</ErrorNote>}
      {unlock.isError && <ErrorNote>{errorText(unlock.error)}</ErrorNote>}
      <Table head={["Email", "Name", "Role", "Created", "Status", ""]}>
        {members.data?.members.map((m) => (
          <tr key={m.id} data-testid="team-row">
            <Td>{m.email}</Td>
            <Td>{m.name ?? "—"}</Td>
            <Td>{m.role.replace("_", " ")}</Td>
            <Td>{formatTime(m.createdAt)}</Td>
            <Td>
              <SignInState member={m} />
            </Td>
            <Td className="space-x-2">
              {(m.locked || m.blockedUntil) && (
                <Button variant="secondary" disabled={unlock.isPending} onClick={() => unlock.mutate(m.id)}>
                  Unlock sign-in
                </Button>
              )}
              {!m.disabledAt && m.id !== selfId && (
                <Button variant="secondary" disabled={disable.isPending} onClick={() => disable.mutate(m.id)}>
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
            create.mutate();
          }}
        >
          <label className="text-xs font-medium text-slate-600">
            Email
            <input
              type="email"
              className={inputClass}
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Name
            <input
              className={inputClass}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Role
            <select
              className={inputClass}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value })}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r.replace("_", " ")}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs font-medium text-slate-600">
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
            {create.isError && <ErrorNote>{errorText(create.error)}</ErrorNote>}
            {create.isSuccess && (
              <p className="text-sm text-emerald-700">
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
