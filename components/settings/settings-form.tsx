"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, Card, ErrorNote, inputClass } from "@/components/ui";
import { errorText, fetchJson } from "@/lib/admin/fetch-json";
import type { TSettingsView } from "@/lib/admin/settings";
import type { TReportingProfile } from "@/lib/clients/schemas";

function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...new Set([...list, value])] : list.filter((x) => x !== value);
}

function Text({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {label}
      <input className={inputClass} value={value ?? ""} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** Blank inputs are left out rather than stored as empty strings. */
function compact<T extends Record<string, unknown>>(obj: T | undefined): T | undefined {
  if (!obj) return undefined;
  const out = Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== "" && v !== undefined));
  return Object.keys(out).length ? (out as T) : undefined;
}

export function SettingsForm({ initial }: { initial: TSettingsView }) {
  const [features, setFeatures] = useState(initial.features);
  const [actions, setActions] = useState(initial.actions);
  const [profile, setProfile] = useState<TReportingProfile>(initial.reportingProfile);
  const [indicators, setIndicators] = useState((initial.reportingProfile.indicatorCodes ?? []).join(", "));
  const save = useMutation({
    mutationFn: () =>
      fetchJson<TSettingsView>("/dashboard-api/settings", {
        method: "PUT",
        body: {
          features,
          actions,
          reportingProfile: {
            ...compact({
              entityId: profile.entityId,
              entityName: profile.entityName,
              branch: profile.branch,
              currencyCodeLocal: profile.currencyCodeLocal,
            }),
            reportingPerson: compact(profile.reportingPerson),
            location: compact(profile.location),
            indicatorCodes: indicators
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
          },
        },
      }),
  });
  const setPerson = (k: string, v: string) =>
    setProfile((p) => ({ ...p, reportingPerson: { ...p.reportingPerson, [k]: v } }));
  const setLocation = (k: string, v: string) =>
    setProfile((p) => ({ ...p, location: { ...p.location, [k]: v } }));

  return (
    <form
      className="space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Card title="Features">
        <div className="grid grid-cols-1 gap-1 md:grid-cols-2">
          {initial.allFeatures.map((f) => (
            <label key={f} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={features.includes(f)}
                onChange={(e) => setFeatures(toggle(features, f, e.target.checked))}
              />
              {f}
            </label>
          ))}
        </div>
      </Card>
      <Card title="Enabled recommended actions">
        <p className="mb-2 text-xs text-slate-500">
          Rules may only recommend enabled actions; existing rules keep theirs until edited.
        </p>
        <div className="grid grid-cols-2 gap-1 md:grid-cols-3">
          {initial.allActions.map((a) => (
            <label key={a} className="flex items-center gap-2 font-mono text-sm">
              <input
                type="checkbox"
                checked={actions.includes(a)}
                onChange={(e) => setActions(toggle(actions, a, e.target.checked))}
              />
              {a}
            </label>
          ))}
        </div>
      </Card>
      <Card title="Reporting profile (goAML)">
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <Text
            label="Reporting entity id"
            value={profile.entityId}
            onChange={(v) => setProfile({ ...profile, entityId: v })}
          />
          <Text
            label="Entity name"
            value={profile.entityName}
            onChange={(v) => setProfile({ ...profile, entityName: v })}
          />
          <Text
            label="Branch"
            value={profile.branch}
            onChange={(v) => setProfile({ ...profile, branch: v })}
          />
          <Text
            label="Local currency (ISO)"
            value={profile.currencyCodeLocal}
            onChange={(v) => setProfile({ ...profile, currencyCodeLocal: v.toUpperCase() })}
          />
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-500">Reporting person</h3>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {(["firstName", "lastName", "title", "email", "phone", "occupation"] as const).map((k) => (
            <Text key={k} label={k} value={profile.reportingPerson?.[k]} onChange={(v) => setPerson(k, v)} />
          ))}
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-500">Location</h3>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {(["addressType", "address", "city", "zip", "state", "countryCode"] as const).map((k) => (
            <Text key={k} label={k} value={profile.location?.[k]} onChange={(v) => setLocation(k, v)} />
          ))}
        </div>
        <div className="mt-4">
          <Text
            label="Default indicator codes (comma-separated)"
            value={indicators}
            onChange={setIndicators}
          />
        </div>
      </Card>
      {save.isError && <ErrorNote>{errorText(save.error)}</ErrorNote>}
      {save.isSuccess && (
        <p role="status" className="text-sm text-emerald-700">
          Settings saved.
        </p>
      )}
      <Button type="submit" disabled={save.isPending}>
        Save settings
      </Button>
    </form>
  );
}
