"use client";

import { useState } from "react";
import { CodeChecklist } from "@/components/reports/code-checklist";
import { featureInfo, listChanges } from "@/components/settings/features";
import { GoamlMisfits } from "@/components/settings/goaml-misfits";
import { useGoamlSchemaSaved, useGoamlSchemaUpload, useSaveSettings } from "@/components/settings/hooks";
import { Button, Card, Dialog, ErrorNote, inputClass } from "@/components/ui";
import { formatEnum } from "@/lib/format";
import type { TSettingsView } from "@/lib/admin/settings";
import type { TReportingProfile } from "@/lib/clients/schemas";
import type { TEnumValue } from "@/lib/reports/goaml/schema";

const PAYMENT_METHODS = ["default", "bank", "card", "wallet", "crypto"] as const;
const REPORT_TYPES = ["STR", "SAR", "CTR", "IFTR", "Other"] as const;

/** A lookup code of the active goAML schema, shown with its label; a stored code the schema lacks is flagged. */
function CodeSelect({
  label,
  value,
  options,
  onChange,
  testId,
  schemaName,
}: {
  label: string;
  value: string | undefined;
  options: TEnumValue[];
  onChange: (v: string) => void;
  testId?: string;
  schemaName: string;
}) {
  const unknown = !!value && !options.some((o) => o.value === value);
  return (
    <label className="text-xs font-medium text-slate-600">
      {label}
      <select
        className={`${inputClass} ${unknown ? "border-red-400 bg-red-50" : ""}`}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        <option value="">— not set —</option>
        {unknown && <option value={value}>{value} (not in the active schema)</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label && o.label !== o.value ? `${o.value} — ${o.label}` : o.value}
          </option>
        ))}
      </select>
      {unknown && (
        <span className="block break-words text-xs font-normal text-red-700" data-testid="stale-code">
          {value} is not a code of {schemaName}: choose one, or map it above. The rest of the profile saves.
        </span>
      )}
    </label>
  );
}

/** Indicator codes a rule suggests, picked from the schema's list. */
function IndicatorPicker({
  rule,
  value,
  options,
  onChange,
}: {
  rule: { ruleId: string; name: string };
  value: string[];
  options: TEnumValue[];
  onChange: (v: string[]) => void;
}) {
  const stale = value.filter((code) => !options.some((o) => o.value === code));
  return (
    <details
      className={`rounded-md border px-3 py-2 text-sm ${stale.length ? "border-red-300" : "border-slate-200"}`}
      data-testid={`indicator-rule-${rule.ruleId}`}
    >
      <summary className="cursor-pointer break-words">
        <span className="font-mono text-xs">{rule.ruleId}</span>{" "}
        <span className="text-slate-600">{rule.name}</span>
        <span className="ml-2 text-xs text-brand-700">
          {value.length ? value.join(", ") : "no indicator"}
        </span>
        {stale.length > 0 && (
          <span className="ml-2 text-xs font-medium text-red-700">
            {stale.join(", ")} not in the active schema
          </span>
        )}
      </summary>
      <div className="mt-2">
        <CodeChecklist
          codes={options}
          chosen={value}
          onToggle={(code, on) => onChange(toggle(value, code, on))}
          noun="indicator codes"
          testIdPrefix={`indicator-${rule.ruleId}`}
        />
      </div>
    </details>
  );
}

function SchemaUpload({ goaml }: { goaml: TSettingsView["goaml"] }) {
  const upload = useGoamlSchemaUpload();
  const saved = useGoamlSchemaSaved();
  return (
    <div className="mb-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="goaml-schema">
      <p>
        Active goAML schema: <strong data-testid="goaml-schema-name">{goaml.name}</strong>
        {goaml.version && <span className="text-slate-600"> (version {goaml.version})</span>} ·{" "}
        {goaml.indicators.length} indicator codes, {goaml.lookups.country.length} countries,{" "}
        {goaml.lookups.transmode.length} transmission modes
      </p>
      <p className="mt-1 text-xs text-slate-600">
        Reports are written in this schema&apos;s element order, checked against its types and lookups, and
        validated against it before anyone can download or file them.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <label className="text-xs font-medium text-slate-600">
          Upload the FIU&apos;s XSD
          <input
            type="file"
            accept=".xsd,application/xml,text/xml"
            className="mt-1 block text-sm"
            data-testid="goaml-schema-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file);
              e.target.value = "";
            }}
          />
        </label>
        {!goaml.generic && (
          <Button type="button" variant="secondary" onClick={() => upload.mutate(null)}>
            Use the generic goAML 5.0.1 schema
          </Button>
        )}
        {upload.isPending && <span className="text-xs text-slate-600">Checking the schema…</span>}
      </div>
      {upload.isError && <ErrorNote>{upload.error.message}</ErrorNote>}
      {saved && !upload.isPending && !upload.isError && (
        <p role="status" className="mt-1 text-sm text-emerald-700">
          Schema saved.
        </p>
      )}
    </div>
  );
}

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
  const [mapping, setMapping] = useState<Record<string, string[]>>(
    initial.reportingProfile.indicatorMapping ?? {},
  );
  const lookups = initial.goaml.lookups;
  const save = useSaveSettings(() => ({
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
      codes: compact({
        submissionCode: profile.codes?.submissionCode,
        contactType: profile.codes?.contactType,
        communicationType: profile.codes?.communicationType,
        fundsCode: profile.codes?.fundsCode,
        transmode: compact(profile.codes?.transmode),
        reportCode: compact(profile.codes?.reportCode),
      }),
      indicatorMapping: Object.fromEntries(Object.entries(mapping).filter(([, v]) => v.length > 0)),
    },
  }));
  const featureChanges = listChanges(initial.features, features, initial.allFeatures);
  const actionChanges = listChanges(initial.actions, actions, initial.allActions);
  // Features and actions change what screens: the save says how before it is confirmed.
  const [confirming, setConfirming] = useState(false);
  const submit = () =>
    save.mutate(undefined, {
      onSettled: () => setConfirming(false),
    });
  const setPerson = (k: string, v: string) =>
    setProfile((p) => ({ ...p, reportingPerson: { ...p.reportingPerson, [k]: v } }));
  const setLocation = (k: string, v: string) =>
    setProfile((p) => ({ ...p, location: { ...p.location, [k]: v } }));
  const setCode = (k: string, v: string) => setProfile((p) => ({ ...p, codes: { ...p.codes, [k]: v } }));
  const setCodeMap = (k: "transmode" | "reportCode", key: string, v: string) =>
    setProfile((p) => ({ ...p, codes: { ...p.codes, [k]: { ...p.codes?.[k], [key]: v } } }));

  return (
    <form
      className="space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        if (featureChanges.length + actionChanges.length > 0) setConfirming(true);
        else submit();
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
              {featureInfo(f).label}
            </label>
          ))}
        </div>
      </Card>
      <Card title="Enabled recommended actions">
        <p className="mb-2 text-xs text-slate-600">
          Rules may only recommend enabled actions; existing rules keep theirs until edited.
        </p>
        <div className="grid grid-cols-2 gap-1 md:grid-cols-3">
          {initial.allActions.map((a) => (
            <label key={a} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={actions.includes(a)}
                onChange={(e) => setActions(toggle(actions, a, e.target.checked))}
              />
              {formatEnum(a)}
            </label>
          ))}
        </div>
      </Card>
      <Card title="Reporting profile (goAML)">
        <SchemaUpload goaml={initial.goaml} />
        <GoamlMisfits misfits={initial.misfits} />
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
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Local currency"
            value={profile.currencyCodeLocal}
            options={lookups.currency}
            onChange={(v) => setProfile({ ...profile, currencyCodeLocal: v || undefined })}
          />
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-600">Reporting person</h3>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {(
            [
              ["firstName", "First name"],
              ["lastName", "Last name"],
              ["title", "Title"],
              ["email", "Email"],
              ["phone", "Phone (+country code)"],
              ["occupation", "Occupation"],
            ] as const
          ).map(([k, label]) => (
            <Text
              key={k}
              label={label}
              value={profile.reportingPerson?.[k]}
              onChange={(v) => setPerson(k, v)}
            />
          ))}
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-600">Reporting location</h3>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Address type"
            value={profile.location?.addressType}
            options={lookups.contactType}
            onChange={(v) => setLocation("addressType", v)}
          />
          {(
            [
              ["address", "Street address"],
              ["city", "City"],
              ["zip", "Postal code"],
              ["state", "State or region"],
            ] as const
          ).map(([k, label]) => (
            <Text key={k} label={label} value={profile.location?.[k]} onChange={(v) => setLocation(k, v)} />
          ))}
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Country"
            value={profile.location?.countryCode}
            options={lookups.country}
            onChange={(v) => setLocation("countryCode", v)}
          />
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-600">goAML codes</h3>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-4">
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Submission code"
            value={profile.codes?.submissionCode}
            options={lookups.submissionCode}
            onChange={(v) => setCode("submissionCode", v)}
          />
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Contact type (phones, addresses)"
            value={profile.codes?.contactType}
            options={lookups.contactType}
            onChange={(v) => setCode("contactType", v)}
            testId="code-contactType"
          />
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Phone communication type"
            value={profile.codes?.communicationType}
            options={lookups.communicationType}
            onChange={(v) => setCode("communicationType", v)}
          />
          <CodeSelect
            schemaName={initial.goaml.name}
            label="Funds code"
            value={profile.codes?.fundsCode}
            options={lookups.fundsCode}
            onChange={(v) => setCode("fundsCode", v)}
          />
          {PAYMENT_METHODS.map((m) => (
            <CodeSelect
              schemaName={initial.goaml.name}
              key={m}
              label={`Transmission mode: ${m === "default" ? "any other method" : m}`}
              value={profile.codes?.transmode?.[m]}
              options={lookups.transmode}
              onChange={(v) => setCodeMap("transmode", m, v)}
              testId={`code-transmode-${m}`}
            />
          ))}
          {REPORT_TYPES.map((t) => (
            <CodeSelect
              schemaName={initial.goaml.name}
              key={t}
              label={`Report code for ${t}`}
              value={profile.codes?.reportCode?.[t]}
              options={lookups.reportCode}
              onChange={(v) => setCodeMap("reportCode", t, v)}
            />
          ))}
        </div>
        <h3 className="mb-2 mt-4 text-xs font-semibold uppercase text-slate-600">
          Indicators suggested by rules
        </h3>
        <p className="mb-2 text-xs text-slate-600">
          When a rule has fired on a report&apos;s transactions, its indicators are suggested on the report.
        </p>
        <div className="space-y-1.5" data-testid="indicator-mapping">
          {initial.rules.map((r) => (
            <IndicatorPicker
              key={r.ruleId}
              rule={r}
              value={mapping[r.ruleId] ?? []}
              options={initial.goaml.indicators}
              onChange={(v) => setMapping((m) => ({ ...m, [r.ruleId]: v }))}
            />
          ))}
          {initial.rules.length === 0 && <p className="text-sm text-slate-600">No rules yet.</p>}
        </div>
      </Card>
      {save.isError && <ErrorNote>{save.error.message}</ErrorNote>}
      {save.isSuccess && (
        <div role="status" className="text-sm text-emerald-700" data-testid="settings-saved">
          Settings saved.
          {!!save.data.notSaved?.length && (
            <ul className="mt-1 list-disc pl-5 text-red-700" data-testid="settings-not-saved">
              {save.data.notSaved.map((m) => (
                <li key={m} className="break-words">
                  Not saved: {m.replace(/^\/reportingProfile\/\S+: /, "")}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <Button type="submit" disabled={save.isPending}>
        Save settings
      </Button>
      <Dialog
        open={confirming}
        onClose={() => {
          if (!save.isPending) setConfirming(false);
        }}
        title="Change what is screened?"
        description="These changes apply from the next screening request:"
        testId="settings-confirm"
      >
        <ul className="mb-4 list-disc space-y-1 pl-5 text-sm text-slate-800">
          {featureChanges.map(({ value, on }) => (
            <li key={value}>
              <strong>
                {featureInfo(value).label} {on ? "on" : "off"}:
              </strong>{" "}
              {on ? featureInfo(value).on : featureInfo(value).off}
            </li>
          ))}
          {actionChanges.map(({ value, on }) => (
            <li key={value}>
              <strong>
                {formatEnum(value)} {on ? "enabled" : "disabled"}:
              </strong>{" "}
              {on
                ? "rules may recommend it."
                : "new and edited rules may no longer recommend it; live rules keep it until edited."}
            </li>
          ))}
        </ul>
        <div className="flex justify-end gap-2">
          <Button
            variant="secondary"
            data-autofocus
            disabled={save.isPending}
            onClick={() => setConfirming(false)}
          >
            Cancel
          </Button>
          <Button disabled={save.isPending} onClick={submit}>
            Save and apply
          </Button>
        </div>
      </Dialog>
    </form>
  );
}
