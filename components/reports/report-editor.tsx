"use client";

import { useState, useTransition } from "react";
import type { TActionState } from "@/components/reports/action-state";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import type { TEditorField, TEditorGroup } from "@/lib/reports/editor";

type TSave = (entries: { paths: string[]; value: string }[]) => Promise<TActionState>;

function FieldInput({
  field,
  value,
  onChange,
  disabled,
  invalid,
}: {
  field: TEditorField;
  value: string;
  onChange: (v: string) => void;
  disabled: boolean;
  invalid: boolean;
}) {
  const tone = invalid
    ? "border-red-400 bg-red-50/50"
    : field.missing && value === ""
      ? "border-amber-300 bg-amber-50/40"
      : "";
  if (field.input.kind === "select") {
    const known = field.input.options.some((o) => o.value === value);
    return (
      <select
        id={field.id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass} mt-1 ${tone}`}
        data-testid="editor-input"
        data-paths={field.paths.join(" ")}
      >
        <option value="">— choose —</option>
        {!known && value !== "" && <option value={value}>{value} (not a code of this schema)</option>}
        {field.input.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label && o.label !== o.value ? `${o.value} — ${o.label}` : o.value}
          </option>
        ))}
      </select>
    );
  }
  const common = {
    id: field.id,
    value,
    disabled,
    placeholder: field.input.placeholder,
    className: `${inputClass} mt-1 ${tone}`,
    "data-testid": "editor-input",
    "data-paths": field.paths.join(" "),
  };
  return field.input.multiline ? (
    <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
  ) : (
    <input {...common} onChange={(e) => onChange(e.target.value)} />
  );
}

function GroupForm({ group, save, disabled }: { group: TEditorGroup; save: TSave; disabled: boolean }) {
  const initial = Object.fromEntries(group.fields.map((f) => [f.id, f.value]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [state, setState] = useState<TActionState | null>(null);
  // When the stored report changes (a save, another officer), the form starts again from what is stored.
  const stored = JSON.stringify(initial);
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    setValues(initial);
  }
  const [pending, start] = useTransition();
  const changed = group.fields.filter((f) => (values[f.id] ?? "") !== f.value);
  const errorFor = (f: TEditorField) =>
    f.paths.map((p) => state?.fieldErrors?.[p]).find(Boolean) ??
    (changed.includes(f) ? undefined : f.problem);

  return (
    <form
      className="rounded-lg border border-slate-200 p-4"
      data-testid="editor-group"
      data-group-title={group.title}
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          setState(await save(changed.map((f) => ({ paths: f.paths, value: values[f.id] ?? "" }))));
        });
      }}
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-800">{group.title}</h3>
        <p className="text-xs text-slate-600" data-testid="group-where">
          {group.where.length > 1 ? `Appears ${group.where.length} times: ` : ""}
          {group.where.join("; ")}
        </p>
      </div>
      <div className="grid grid-cols-1 gap-x-4 gap-y-3 md:grid-cols-2">
        {group.fields.map((f) => {
          const error = errorFor(f);
          return (
            <label key={f.id} className="block text-sm" data-testid="editor-field" data-label={f.label}>
              <span className="text-slate-700">
                {f.label}
                {f.required && <span className="text-slate-600"> (required)</span>}
                {f.missing && (values[f.id] ?? "") === "" && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-800">missing</span>
                )}
              </span>
              <FieldInput
                field={f}
                value={values[f.id] ?? ""}
                onChange={(v) => setValues((prev) => ({ ...prev, [f.id]: v }))}
                disabled={disabled || pending}
                invalid={!!error}
              />
              {error && (
                <span className="mt-1 block text-xs text-red-700" data-testid="field-error">
                  {error}
                </span>
              )}
            </label>
          );
        })}
      </div>
      {!disabled && (
        <div className="mt-3 flex items-center gap-3">
          <Button type="submit" disabled={pending || changed.length === 0} data-testid="save-group">
            {group.where.length > 1 ? `Save (applies to all ${group.where.length})` : "Save"}
          </Button>
          {state?.error && <ErrorNote>{state.error}</ErrorNote>}
          {state?.ok && (
            <p className="text-sm text-emerald-700" data-testid="group-saved">
              {state.message}
            </p>
          )}
        </div>
      )}
    </form>
  );
}

/** The draft editor: every field of the report grouped by who or what it describes, checked by the server on save. */
export function ReportEditor({
  groups,
  save,
  disabled,
}: {
  groups: TEditorGroup[];
  save: TSave;
  disabled: boolean;
}) {
  return (
    <div className="space-y-4" data-testid="report-editor">
      {groups.map((g) => (
        <GroupForm key={`${g.id}-${g.title}`} group={g} save={save} disabled={disabled} />
      ))}
    </div>
  );
}
