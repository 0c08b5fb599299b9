"use client";

import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { flushSync } from "react-dom";
import { applyCompletion, complete, tokenAt, type TCompletion } from "@/components/rules/completions";
import { cx, inputClass } from "@/components/ui";

export type { TCompletion } from "@/components/rules/completions";

/**
 * The CEL condition field: a textarea that completes declared field paths, aggregate names and
 * functions as you type (Tab or Enter accepts, arrows move, Esc closes), and points at the column of
 * each problem the engine reported.
 */
export function ConditionInput({
  id,
  value,
  onChange,
  completions,
  problems,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  completions: readonly TCompletion[];
  problems: ReadonlyArray<{ message: string; start?: number; end?: number }>;
  disabled?: boolean;
}) {
  const listId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const token = caret === null ? null : tokenAt(value, caret);
  const options = useMemo(
    () => (token && token.token !== dismissed ? complete(token.token, completions) : []),
    [token, dismissed, completions],
  );
  const open = options.length > 0 && !disabled;

  function accept(option: TCompletion) {
    if (!token || caret === null) return;
    const replacement = applyCompletion(token.token, option.label);
    const next = value.slice(0, token.start) + replacement + value.slice(caret);
    const position = token.start + replacement.length;
    // The caret goes after the completion in the same task: placed at the next frame instead, it
    // landed after whatever was typed meanwhile on a loaded machine and split the text there.
    flushSync(() => {
      onChange(next);
      setCaret(position);
    });
    ref.current?.setSelectionRange(position, position);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((i) => (i + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      accept(options[Math.min(active, options.length - 1)]!);
    } else if (e.key === "Escape") {
      e.preventDefault();
      setDismissed(token?.token ?? null);
    }
  }

  const located = problems.filter((p) => p.start !== undefined);
  return (
    <div className="relative">
      <textarea
        ref={ref}
        id={id}
        rows={3}
        spellCheck={false}
        disabled={disabled}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${Math.min(active, options.length - 1)}` : undefined}
        className={cx(inputClass, "font-mono", problems.length > 0 && "border-red-400")}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
          setDismissed(null);
        }}
        onKeyDown={onKeyDown}
        onClick={(e) => setCaret(e.currentTarget.selectionStart)}
        onBlur={() => setTimeout(() => setCaret(null), 150)}
        placeholder="transaction.amount > 1000 && aggregates.count24h > 3"
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Completions"
          data-testid="completions"
          className="absolute left-0 right-0 z-10 mt-1 max-h-60 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg"
        >
          {options.map((o, i) => (
            <li
              key={o.label}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cx(
                "flex cursor-pointer justify-between gap-4 px-3 py-1 font-mono",
                i === active ? "bg-brand-50 text-brand-900" : "text-slate-800",
              )}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(o);
              }}
            >
              <span>{o.label}</span>
              <span className="text-xs text-slate-600">{o.detail}</span>
            </li>
          ))}
        </ul>
      )}
      {located.map((p, i) => {
        const lineStart = value.lastIndexOf("\n", p.start! - 1) + 1;
        const lineEnd = value.indexOf("\n", p.start!);
        const line = value.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
        const width = Math.max(
          1,
          Math.min((p.end ?? p.start! + 1) - p.start!, line.length - (p.start! - lineStart)),
        );
        return (
          <pre
            key={i}
            aria-hidden="true"
            className="mt-1 overflow-x-auto rounded bg-red-50 px-2 py-1 font-mono text-xs text-red-800"
            data-testid="condition-marker"
          >
            {line}
            {"\n"}
            {" ".repeat(p.start! - lineStart)}
            {"^".repeat(width)}
          </pre>
        );
      })}
    </div>
  );
}
