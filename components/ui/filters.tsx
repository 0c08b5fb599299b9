"use client";

// The filter controls every list screen shares: a bar, a labelled select, dates, free text and the user filter.
import { useEffect, useId, useState, type ReactNode } from "react";
import { formatEnum } from "@/lib/format";
import { cx } from "@/components/ui/cx";
import { inputClass } from "@/components/ui/styles";
import { useUsers } from "@/components/users/hooks";

const labelClass = "flex flex-col gap-1 text-xs font-medium text-slate-700";

export function FilterBar({
  children,
  busy = false,
  label = "Filters",
}: {
  children: ReactNode;
  busy?: boolean;
  label?: string;
}) {
  return (
    <form
      role="search"
      aria-label={label}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      onSubmit={(e) => e.preventDefault()}
    >
      {children}
      {busy && (
        <span className="pb-2 text-xs text-slate-600" role="status">
          Loading…
        </span>
      )}
    </form>
  );
}

export type TOption = string | { value: string; label: string };

/** A labelled select; string options are shown through formatEnum, "" means "any". */
export function SelectFilter({
  label,
  value,
  options,
  onChange,
  anyLabel = "Any",
  className,
}: {
  label: string;
  value: string | undefined;
  options: readonly TOption[];
  onChange: (value: string | undefined) => void;
  anyLabel?: string | null;
  className?: string;
}) {
  return (
    <label className={labelClass}>
      {label}
      <select
        className={cx(inputClass, className)}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        {anyLabel !== null && <option value="">{anyLabel}</option>}
        {options.map((o) => {
          const option = typeof o === "string" ? { value: o, label: formatEnum(o) } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A calendar day (`YYYY-MM-DD`), or undefined when cleared. */
export function DateFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className={labelClass}>
      {label}
      <input
        type="date"
        className={inputClass}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      />
    </label>
  );
}

/**
 * Free text applied on Enter or when the field loses focus, so each keystroke does not refetch. With
 * `suggestions`, picking one applies it at once.
 */
export function TextFilter({
  label,
  value,
  onChange,
  placeholder,
  className,
  suggestions,
  onTyping,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  placeholder?: string;
  className?: string;
  suggestions?: { value: string; label: string }[];
  onTyping?: (text: string) => void;
}) {
  const [text, setText] = useState(value ?? "");
  const listId = useId();
  useEffect(() => setText(value ?? ""), [value]);
  const apply = (raw: string) => {
    const next = raw.trim() || undefined;
    if (next !== value) onChange(next);
  };
  return (
    <label className={cx(labelClass, className)}>
      {label}
      <input
        type="search"
        className={inputClass}
        value={text}
        placeholder={placeholder}
        list={suggestions ? listId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          onTyping?.(e.target.value);
          if (suggestions?.some((s) => s.value === e.target.value)) apply(e.target.value);
        }}
        onBlur={() => apply(text)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            apply(text);
          }
        }}
      />
      {suggestions && (
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </datalist>
      )}
    </label>
  );
}

/**
 * Filter a list by one end user, on every list with a user column: type the start of a name, an email or
 * an id and pick the user; the filter is the user's exact id.
 */
export function UserFilter({
  value,
  onChange,
  label = "User",
}: {
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
  label?: string;
}) {
  const [typed, setTyped] = useState("");
  const { data } = useUsers({ q: typed.trim() }, undefined, { enabled: typed.trim().length >= 2 });
  const suggestions = (data?.users ?? []).slice(0, 10).map((u) => ({
    value: u.id,
    label: [u.name, u.email].filter(Boolean).join(" · ") || u.id,
  }));
  return (
    <TextFilter
      label={label}
      value={value}
      onChange={onChange}
      onTyping={setTyped}
      suggestions={suggestions}
      placeholder="Name, email or id"
      className="w-56"
    />
  );
}
