"use client";

// The filter controls every list screen shares: a bar, a labelled select, dates, free text and the user filter.
import { useEffect, useState, type ReactNode } from "react";
import { formatEnum } from "@/lib/format";
import { cx } from "@/components/ui/cx";
import { inputClass } from "@/components/ui/styles";

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

/** Free text applied on Enter or when the field loses focus, so each keystroke does not refetch. */
export function TextFilter({
  label,
  value,
  onChange,
  placeholder,
  className,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  placeholder?: string;
  className?: string;
}) {
  const [text, setText] = useState(value ?? "");
  useEffect(() => setText(value ?? ""), [value]);
  const apply = () => {
    const next = text.trim() || undefined;
    if (next !== value) onChange(next);
  };
  return (
    <label className={labelClass}>
      {label}
      <input
        type="search"
        className={cx(inputClass, className)}
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            apply();
          }
        }}
      />
    </label>
  );
}

/** Filter a list by one end user (exact user id), on every list with a user column. */
export function UserFilter({
  value,
  onChange,
  label = "User",
}: {
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
  label?: string;
}) {
  return (
    <TextFilter
      label={label}
      value={value}
      onChange={onChange}
      placeholder="User id"
      className="w-48 font-mono"
    />
  );
}
