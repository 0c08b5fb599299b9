"use client";

import { useActionState } from "react";
import type { TActionState } from "@/app/(dashboard)/dashboard/reports/actions";
import { Button, ErrorNote, inputClass } from "@/components/ui";

type TAction = (prev: TActionState, form: FormData) => Promise<TActionState>;
const INITIAL: TActionState = { ok: false, error: null, message: null };

function Outcome({ state, testId }: { state: TActionState; testId: string }) {
  if (state.error) return <ErrorNote>{state.error}</ErrorNote>;
  if (state.message)
    return (
      <p className="text-sm text-emerald-700" data-testid={testId}>
        {state.message}
      </p>
    );
  return null;
}

function hint(path: string): string {
  if (/(birthdate|date)$/.test(path)) return "YYYY-MM-DDT00:00:00";
  if (/(country|nationality1|residence|country_code)$/.test(path)) return "ISO country code, e.g. KE";
  if (/currency/.test(path)) return "ISO currency code";
  return "";
}

export function MissingFieldsForm({
  action,
  paths,
  disabled,
}: {
  action: TAction;
  paths: string[];
  disabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, INITIAL);
  if (paths.length === 0)
    return (
      <p className="text-sm text-emerald-700" data-testid="no-missing-fields">
        Nothing is missing for a valid goAML file.
      </p>
    );
  return (
    <form action={formAction} className="space-y-3" data-testid="missing-fields-form">
      {paths.map((path) => (
        <label key={path} className="block text-sm">
          <span className="font-mono text-xs text-red-700">{path}</span>
          <input
            name={`field:${path}`}
            data-testid="missing-field"
            data-path={path}
            placeholder={hint(path)}
            disabled={disabled}
            className={`${inputClass} mt-1 border-red-300 bg-red-50/40`}
          />
        </label>
      ))}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={disabled || pending} data-testid="save-fields">
          Save fields
        </Button>
        <Outcome state={state} testId="fields-saved" />
      </div>
    </form>
  );
}

export function IndicatorsForm({
  action,
  codes,
  selected,
  disabled,
}: {
  action: TAction;
  codes: string[];
  selected: string[];
  disabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, INITIAL);
  const free = selected.filter((s) => !codes.includes(s));
  return (
    <form action={formAction} className="space-y-3" data-testid="indicators-form">
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {codes.map((code) => (
          <label key={code} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              name="indicator"
              value={code}
              defaultChecked={selected.includes(code)}
              disabled={disabled}
              data-testid={`indicator-${code}`}
            />
            <span className="font-mono">{code}</span>
          </label>
        ))}
        {codes.length === 0 && (
          <p className="text-sm text-slate-500">No indicator code list in the reporting profile.</p>
        )}
      </div>
      <label className="block text-sm">
        <span className="text-slate-600">Other codes (comma-separated)</span>
        <input
          name="freeIndicators"
          defaultValue={free.join(", ")}
          disabled={disabled}
          className={`${inputClass} mt-1`}
          data-testid="free-indicators"
        />
      </label>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={disabled || pending} data-testid="save-indicators">
          Save indicators
        </Button>
        <Outcome state={state} testId="indicators-saved" />
      </div>
    </form>
  );
}

const LABELS: Record<string, string> = {
  pending_review: "Submit for review",
  draft: "Send back to draft",
  rejected: "Mark rejected by FIU",
  resubmission_required: "Mark resubmission required",
  amended: "Amend",
  archived: "Archive",
};

export function WorkflowPanel({
  action,
  next,
  disabled,
}: {
  action: TAction;
  next: string[];
  disabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, INITIAL);
  if (next.length === 0) return <p className="text-sm text-slate-500">No further transitions.</p>;
  return (
    <div className="space-y-3">
      {next.includes("submitted") && (
        <form action={formAction} className="flex flex-wrap items-end gap-2" data-testid="file-form">
          <input type="hidden" name="to" value="submitted" />
          <label className="text-sm">
            <span className="text-slate-600">FIU reference number</span>
            <input
              name="fiuReferenceNumber"
              required
              disabled={disabled}
              className={`${inputClass} mt-1 w-64`}
              data-testid="fiu-reference"
            />
          </label>
          <Button type="submit" disabled={disabled || pending} data-testid="transition-submitted">
            File with FIU
          </Button>
        </form>
      )}
      <div className="flex flex-wrap gap-2">
        {next
          .filter((s) => s !== "submitted")
          .map((to) => (
            <form key={to} action={formAction}>
              <input type="hidden" name="to" value={to} />
              <Button
                type="submit"
                variant={to === "archived" ? "secondary" : "primary"}
                disabled={disabled || pending}
                data-testid={`transition-${to}`}
              >
                {LABELS[to] ?? to}
              </Button>
            </form>
          ))}
      </div>
      <Outcome state={state} testId="transition-done" />
    </div>
  );
}
