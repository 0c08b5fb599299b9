"use client";

import { useState, useTransition } from "react";
import type { TActionState } from "@/components/reports/action-state";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import type { TEditorField, TEditorGroup } from "@/lib/reports/editor";

type TSave = (entries: { paths: string[]; value: string }[]) => Promise<TActionState>;
export type TStructureChange =
  { op: "add"; parents: string[]; element: string } | { op: "remove"; paths: string[] };
type TEdit = (change: TStructureChange) => Promise<TActionState>;

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
    : (field.missing || field.required) && value === ""
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
  if (field.input.kind === "date" || field.input.kind === "datetime")
    return (
      <input
        id={field.id}
        type={field.input.kind === "date" ? "date" : "datetime-local"}
        step={field.input.kind === "datetime" ? 1 : undefined}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass} mt-1 ${tone}`}
        data-testid="editor-input"
        data-paths={field.paths.join(" ")}
      />
    );
  const common = {
    id: field.id,
    value,
    disabled,
    placeholder: field.input.placeholder,
    className: `${inputClass} mt-1 ${tone}`,
    "data-testid": "editor-input",
    "data-paths": field.paths.join(" "),
  };
  return field.input.kind === "text" && field.input.multiline ? (
    <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
  ) : (
    <input {...common} onChange={(e) => onChange(e.target.value)} />
  );
}

/** Add an element the schema allows to a part of the group, or remove an optional part: applied everywhere the group appears. */
function StructureControls({
  group,
  edit,
  disabled,
}: {
  group: TEditorGroup;
  edit: TEdit;
  disabled: boolean;
}) {
  const [choice, setChoice] = useState("");
  const [state, setState] = useState<TActionState | null>(null);
  const [pending, start] = useTransition();
  const run = (change: TStructureChange) =>
    start(async () => {
      const result = await edit(change);
      setState(result);
      if (result.ok) setChoice("");
    });
  const addable = group.parts.filter((p) => p.add.length > 0);
  const removable = group.parts.filter((p) => p.removable && p.label);
  if (disabled || (addable.length === 0 && removable.length === 0)) return null;
  const [partIndex, element] = choice ? [Number(choice.split(":")[0]), choice.split(":")[1]!] : [-1, ""];
  const part = group.parts[partIndex];
  return (
    <div className="mt-4 space-y-2 border-t border-slate-100 pt-3" data-testid="structure-controls">
      {removable.length > 0 && (
        <div className="flex flex-wrap items-center gap-1.5 text-xs">
          <span className="text-slate-600">Optional parts:</span>
          {removable.map((p) => (
            <span
              key={p.id}
              className="inline-flex max-w-full items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5"
            >
              <span className="truncate">{p.label}</span>
              <button
                type="button"
                className="text-red-700 hover:underline disabled:opacity-50"
                disabled={pending}
                aria-label={`Remove ${p.label}`}
                data-testid="remove-part"
                data-part={p.label}
                onClick={() => run({ op: "remove", paths: p.paths })}
              >
                Remove
              </button>
            </span>
          ))}
        </div>
      )}
      {addable.length > 0 && (
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm">
            <span className="text-slate-700">Add to {group.title}</span>
            <select
              id={`add-${group.id}`}
              value={choice}
              disabled={pending}
              onChange={(e) => setChoice(e.target.value)}
              className={`${inputClass} mt-1 max-w-md`}
              data-testid="add-element"
            >
              <option value="">— choose what to add —</option>
              {group.parts.map((p, i) =>
                p.add.length === 0 ? null : (
                  <optgroup key={p.id} label={p.label ? `In ${p.label}` : group.title}>
                    {p.add.map((a) => (
                      <option key={a.element} value={`${i}:${a.element}`}>
                        {p.label ? `${a.label} (in ${p.label})` : a.label}
                      </option>
                    ))}
                  </optgroup>
                ),
              )}
            </select>
          </label>
          <Button
            type="button"
            variant="secondary"
            disabled={pending || !part}
            data-testid="add-element-submit"
            onClick={() => part && run({ op: "add", parents: part.paths, element })}
          >
            {pending ? "Adding…" : group.where.length > 1 ? `Add (to all ${group.where.length})` : "Add"}
          </Button>
        </div>
      )}
      {state?.error && <ErrorNote>{state.error}</ErrorNote>}
      {state?.ok && (
        <p className="text-sm text-emerald-700" role="status" data-testid="structure-done">
          {state.message === "Added." ? "Added: fill in the fields marked missing." : state.message}
        </p>
      )}
    </div>
  );
}

function GroupForm({
  group,
  save,
  edit,
  disabled,
  warnings,
}: {
  group: TEditorGroup;
  save: TSave;
  edit: TEdit;
  disabled: boolean;
  warnings: Record<string, string>;
}) {
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
          // A warning is about the stored value: it goes while the officer types another one.
          const warning = changed.includes(f) ? undefined : f.paths.map((p) => warnings[p]).find(Boolean);
          return (
            <label key={f.id} className="block text-sm" data-testid="editor-field" data-label={f.label}>
              <span className="text-slate-700">
                {f.label}
                {f.required && <span className="text-slate-600"> (required)</span>}
                {(f.missing || f.required) && (values[f.id] ?? "") === "" && (
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
              {!error && warning && (
                <span
                  className="mt-1 block rounded bg-amber-50 px-1.5 py-0.5 text-xs break-words text-amber-800"
                  data-testid="field-warning"
                >
                  ⚠ {warning} (to confirm with a note when submitting)
                </span>
              )}
              {f.removable && !disabled && (
                <button
                  type="button"
                  className="mt-1 text-xs text-red-700 hover:underline"
                  data-testid="remove-field"
                  onClick={() => start(async () => setState(await edit({ op: "remove", paths: f.paths })))}
                >
                  Remove {f.label.toLowerCase()}
                </button>
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
      <StructureControls group={group} edit={edit} disabled={disabled} />
    </form>
  );
}

/** The draft editor: every field of the report grouped by who or what it describes, checked by the server on save. */
export function ReportEditor({
  groups,
  save,
  edit,
  disabled,
  warnings,
}: {
  groups: TEditorGroup[];
  save: TSave;
  edit: TEdit;
  disabled: boolean;
  /** Per content path, what a regulator would question in the stored value. */
  warnings: Record<string, string>;
}) {
  return (
    <div className="space-y-4" data-testid="report-editor">
      {groups.map((g) => (
        <GroupForm
          key={`${g.id}-${g.title}`}
          group={g}
          save={save}
          edit={edit}
          disabled={disabled}
          warnings={warnings}
        />
      ))}
    </div>
  );
}
