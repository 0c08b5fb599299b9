"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { inputClass } from "@/components/ui/styles";

export type TNoteDialogValues = { note: string; option: boolean };

type TNoteDialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  testId?: string;
  size?: "md" | "lg";
  /** What the action does, shown above the fields. */
  intro?: ReactNode;
  /** Fields of the action itself (a verdict, an outcome), above the note. */
  children?: ReactNode;
  noteLabel: string;
  notePlaceholder?: string;
  /** Set when the note is required: the message shown when someone submits without one. */
  requiredMessage?: string;
  /** A checkbox, ticked by default, for what the action may also change (e.g. confirming open alerts). */
  optionLabel?: ReactNode;
  /** Extra validation of the action's own fields: the message to show, or null when they are complete. */
  check?: () => string | null;
  submitLabel: string;
  danger?: boolean;
  /** The mutation behind the dialog: its pending state and its last error. */
  pending: boolean;
  error: Error | null;
  onSubmit: (values: TNoteDialogValues) => void;
};

/**
 * The dashboard's one "act with a note" dialog (verdicts, blocks, fraud marks, closing cases): focus moves
 * in and stays, Esc closes, a missing note says so, a server error stays inside, nothing can be pressed
 * twice while the request runs.
 */
export function NoteDialog({ open, onClose, pending, ...rest }: TNoteDialogProps) {
  // While the request runs the dialog stays: closing it would hide the answer.
  const close = () => {
    if (!pending) onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={rest.title} size={rest.size} testId={rest.testId}>
      {/* Mounted only while open, so every opening starts empty. */}
      <NoteForm {...rest} pending={pending} onCancel={close} />
    </Dialog>
  );
}

function NoteForm({
  intro,
  children,
  noteLabel,
  notePlaceholder,
  requiredMessage,
  optionLabel,
  check,
  submitLabel,
  danger = false,
  pending,
  error,
  onSubmit,
  onCancel,
}: Omit<TNoteDialogProps, "open" | "onClose" | "title" | "testId" | "size"> & { onCancel: () => void }) {
  const [note, setNote] = useState("");
  const [option, setOption] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const problemId = useId();
  const errorRef = useRef<HTMLParagraphElement>(null);
  const noteMissing = requiredMessage !== undefined && !note.trim();

  // The submit button was disabled under the focus: the answer takes it, so it is read out and Tab stays in.
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  // A problem disappears as soon as it is fixed, so the message never contradicts the form.
  useEffect(() => {
    if (problem && !noteMissing && !check?.()) setProblem(null);
  }, [problem, noteMissing, check]);

  return (
    <form
      className="space-y-3"
      noValidate
      aria-busy={pending}
      onSubmit={(e) => {
        e.preventDefault();
        if (pending) return;
        const found = check?.() ?? (noteMissing ? requiredMessage : null);
        setProblem(found ?? null);
        if (found) {
          if (noteMissing && !check?.()) noteRef.current?.focus();
          return;
        }
        onSubmit({ note: note.trim(), option: optionLabel !== undefined && option });
      }}
    >
      {intro && <div className="text-sm text-slate-700">{intro}</div>}
      {children}
      <label className="block text-sm font-medium text-slate-800">
        {noteLabel}
        {requiredMessage !== undefined && " (required)"}
        <textarea
          ref={noteRef}
          data-autofocus
          aria-required={requiredMessage !== undefined}
          aria-invalid={problem !== null && noteMissing}
          aria-describedby={problem ? problemId : undefined}
          rows={3}
          className={`${inputClass} mt-1 w-full`}
          value={note}
          placeholder={notePlaceholder}
          readOnly={pending}
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
      {optionLabel !== undefined && (
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5"
            checked={option}
            disabled={pending}
            onChange={(e) => setOption(e.target.checked)}
          />
          <span>{optionLabel}</span>
        </label>
      )}
      {problem && (
        <p
          id={problemId}
          role="alert"
          className="text-sm font-medium text-red-700"
          data-testid="dialog-problem"
        >
          {problem}
        </p>
      )}
      {error && (
        <p
          ref={errorRef}
          tabIndex={-1}
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
          data-testid="error-note"
        >
          {error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={pending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={danger ? "danger" : "primary"} disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * What an action just did, in words, where it was started. It takes the focus the dialog gives back, since
 * the button that opened the dialog may be gone or disabled once the action is done.
 */
export function DoneNote({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <p
      ref={ref}
      tabIndex={-1}
      role="status"
      className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
      data-testid="done-note"
    >
      {children}
    </p>
  );
}

/** One choice of a few, as cards (a verdict, an outcome); the radios stay real for the keyboard and readers. */
export function ChoiceCards<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  children,
}: {
  legend: string;
  name: string;
  options: readonly { value: T; label: string; hint?: string }[];
  value: T | null;
  onChange: (value: T) => void;
  /** Said under the cards, e.g. what the chosen value will do. */
  children?: ReactNode;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid grid-cols-3 gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            className={`cursor-pointer rounded-md border px-3 py-2 text-sm focus-within:ring-2 focus-within:ring-brand-500 ${
              value === o.value ? "border-brand-600 bg-brand-50" : "border-slate-400"
            }`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="sr-only"
            />
            <span className="block font-medium">{o.label}</span>
            {o.hint && <span className="block text-xs text-slate-700">{o.hint}</span>}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
