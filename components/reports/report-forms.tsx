"use client";

import { startTransition, useActionState, useEffect, useRef, useState, useTransition } from "react";
import type { TActionState } from "@/components/reports/action-state";
import { CodeChecklist } from "@/components/reports/code-checklist";
import { Button, ConfirmDialog, ErrorNote, inputClass, NoteDialog } from "@/components/ui";
import type { TEnumValue } from "@/lib/reports/goaml/schema";
import type { TIndicatorSuggestion } from "@/lib/reports/indicators";
import type { TReportWarning } from "@/lib/reports/warnings";

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

export function IndicatorsForm({
  action,
  codes,
  selected,
  suggestions,
  schemaName,
  disabled,
}: {
  action: TAction;
  codes: TEnumValue[];
  selected: string[];
  suggestions: TIndicatorSuggestion[];
  schemaName: string;
  disabled: boolean;
}) {
  // Submitted by hand: a form action would reset the DOM checkboxes behind React's back.
  const [state, setState] = useState<TActionState>(INITIAL);
  const [pending, start] = useTransition();
  const [chosen, setChosen] = useState<string[]>(selected);
  const known = new Set(codes.map((c) => c.value));
  const toggle = (code: string, on: boolean) =>
    setChosen((prev) => (on ? [...new Set([...prev, code])] : prev.filter((c) => c !== code)));
  const open = suggestions.filter((s) => !chosen.includes(s.code));
  return (
    <form
      className="space-y-3"
      data-testid="indicators-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData();
        for (const code of chosen) form.append("indicator", code);
        start(async () => setState(await action(state, form)));
      }}
    >
      <div className="flex flex-wrap gap-1.5" data-testid="indicators-chosen">
        {chosen.length === 0 && <span className="text-sm text-amber-700">No indicator chosen yet.</span>}
        {chosen.map((code) => (
          <span
            key={code}
            className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs ${
              known.has(code) ? "bg-brand-50 text-brand-700" : "bg-red-50 text-red-700"
            }`}
          >
            <span className="font-mono">{code}</span>
            {!known.has(code) && <span>(not in {schemaName})</span>}
            {!disabled && (
              <button
                type="button"
                aria-label={`Remove ${code}`}
                className="ml-0.5 text-slate-600 hover:text-red-700"
                onClick={() => toggle(code, false)}
              >
                ×
              </button>
            )}
          </span>
        ))}
      </div>
      {open.length > 0 && (
        <div className="rounded-md bg-sky-50 p-2 text-sm" data-testid="indicator-suggestions">
          <p className="mb-1 text-xs font-medium text-sky-800">Suggested by the rules that fired</p>
          {open.map((s) => (
            <div key={s.code} className="flex items-center justify-between gap-2">
              <span>
                <span className="font-mono">{s.code}</span>
                {s.label && <span className="text-slate-600"> — {s.label}</span>}
                <span className="text-xs text-slate-600"> ({s.ruleIds.join(", ")})</span>
              </span>
              {!disabled && (
                <button
                  type="button"
                  className="text-xs font-medium text-brand-700 hover:underline"
                  onClick={() => toggle(s.code, true)}
                  data-testid={`suggest-${s.code}`}
                >
                  Add
                </button>
              )}
            </div>
          ))}
        </div>
      )}
      {codes.length === 0 ? (
        <p className="text-sm text-slate-600">{schemaName} lists no indicator codes.</p>
      ) : (
        <CodeChecklist
          codes={codes}
          chosen={chosen}
          onToggle={toggle}
          disabled={disabled}
          testIdPrefix="indicator"
          noun="indicator codes"
        />
      )}
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
};

export function WorkflowPanel({
  action,
  next,
  disabled,
  fileBlockedReason,
  reviewBlockedReasons,
  warnings,
}: {
  action: TAction;
  next: string[];
  disabled: boolean;
  /** Why this officer may not file (four-eyes), shown in full beside the disabled button. */
  fileBlockedReason: string | null;
  /** Why the report cannot go to review yet (the verdict's items). */
  reviewBlockedReasons: string[];
  /** Warnings no officer has confirmed for the next step: review and filing ask for a note first. */
  warnings: TReportWarning[];
}) {
  const [state, formAction, pending] = useActionState(action, INITIAL);
  const fileForm = useRef<HTMLFormElement>(null);
  // The step waiting for the officer's note on the warnings, and the answer in view when the dialog opened.
  const [confirming, setConfirming] = useState<{ to: string; seen: TActionState } | null>(null);
  const answered = confirming && state !== confirming.seen ? state : null;
  useEffect(() => {
    if (answered?.ok) setConfirming(null);
  }, [answered]);
  const ask = (to: string) => (e: { preventDefault: () => void }) => {
    if (warnings.length === 0) return;
    e.preventDefault();
    if (to === "submitted" && !fileForm.current?.reportValidity()) return;
    setConfirming({ to, seen: state });
  };
  if (next.length === 0) return <p className="text-sm text-slate-600">No further transitions.</p>;
  return (
    <div className="space-y-3">
      {next.includes("submitted") && (
        <form
          ref={fileForm}
          action={formAction}
          className="flex flex-wrap items-end gap-2"
          data-testid="file-form"
        >
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
          <Button
            type="submit"
            disabled={disabled || pending || !!fileBlockedReason}
            title={fileBlockedReason ?? undefined}
            onClick={ask("submitted")}
            data-testid="transition-submitted"
          >
            File with FIU
          </Button>
          {fileBlockedReason && (
            <p
              className="basis-full rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800"
              data-testid="four-eyes-note"
            >
              {fileBlockedReason}
            </p>
          )}
        </form>
      )}
      {next.includes("pending_review") && reviewBlockedReasons.length > 0 && (
        <div className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800" data-testid="review-blocked">
          <p className="font-medium">Submit for review needs a file that validates. Still to do:</p>
          <ul className="mt-1 list-disc pl-5">
            {reviewBlockedReasons.slice(0, 8).map((r) => (
              <li key={r}>{r}</li>
            ))}
            {reviewBlockedReasons.length > 8 && (
              <li>and {reviewBlockedReasons.length - 8} more (see above)</li>
            )}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {next
          .filter((s) => s !== "submitted" && s !== "archived")
          .map((to) => (
            <form key={to} action={formAction}>
              <input type="hidden" name="to" value={to} />
              <Button
                type="submit"
                variant={to === "archived" ? "secondary" : "primary"}
                disabled={disabled || pending || (to === "pending_review" && reviewBlockedReasons.length > 0)}
                onClick={to === "pending_review" ? ask(to) : undefined}
                data-testid={`transition-${to}`}
              >
                {LABELS[to] ?? to}
              </Button>
            </form>
          ))}
        {next.includes("archived") && <ArchiveForm formAction={formAction} disabled={disabled || pending} />}
      </div>
      <Outcome state={state} testId="transition-done" />
      <NoteDialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={
          confirming?.to === "submitted"
            ? "Confirm the warnings before filing"
            : "Confirm the warnings before review"
        }
        testId="warnings-dialog"
        size="lg"
        intro={
          <>
            <p>The FIU&apos;s schema accepts these values, but a regulator may question them:</p>
            <ul className="mt-1 list-disc pl-5 text-amber-800" data-testid="warnings-dialog-list">
              {warnings.map((w) => (
                <li key={w.path} className="break-words">
                  {w.message}
                </li>
              ))}
            </ul>
            <p className="mt-2">Your note goes into the report&apos;s audit trail with these warnings.</p>
          </>
        }
        noteLabel="Why is the report right as it is?"
        requiredMessage="Write why these values are right: the note is kept with the report."
        submitLabel={confirming?.to === "submitted" ? "Confirm and file" : "Confirm and submit for review"}
        pending={pending}
        error={answered?.error ? new Error(answered.error) : null}
        onSubmit={({ note }) => {
          if (!confirming) return;
          const form = new FormData(
            confirming.to === "submitted" ? (fileForm.current ?? undefined) : undefined,
          );
          form.set("to", confirming.to);
          form.set("warningsNote", note);
          startTransition(() => formAction(form));
        }}
      />
    </div>
  );
}

/** Archiving is final (no transition leaves it), so it is asked once more instead of done on a stray click. */
function ArchiveForm({ formAction, disabled }: { formAction: (form: FormData) => void; disabled: boolean }) {
  const form = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  return (
    <form ref={form} action={formAction}>
      <input type="hidden" name="to" value="archived" />
      <Button
        variant="secondary"
        disabled={disabled}
        onClick={() => setAsking(true)}
        data-testid="transition-archived"
      >
        Archive…
      </Button>
      <ConfirmDialog
        open={asking}
        title="Archive this report?"
        description="An archived report is final: it cannot be edited, reviewed or filed any more."
        confirmLabel="Archive report"
        danger
        onConfirm={() => {
          setAsking(false);
          form.current?.requestSubmit();
        }}
        onClose={() => setAsking(false)}
      />
    </form>
  );
}
