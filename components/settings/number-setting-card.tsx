"use client";

import { useId, useState, type ReactNode } from "react";
import { errorMessage } from "@/components/api/client";
import { useSaveSettings } from "@/components/settings/hooks";
import { Button, Card, ErrorNote, inputClass } from "@/components/ui";

/**
 * One whole-number client setting in its own card: what it does, the field, its bounds, and a save that says
 * what now holds. The server checks the bounds; its refusal is shown as it words it.
 */
export function NumberSettingCard({
  title,
  setting,
  initial,
  label,
  help,
  saveLabel,
  saved,
  children,
}: {
  title: string;
  /** the key of PUT /dashboard-api/settings */
  setting: string;
  initial: number;
  label: string;
  help: string;
  saveLabel: string;
  saved: (value: number) => string;
  /** what the setting does */
  children: ReactNode;
}) {
  const helpId = useId();
  const [text, setText] = useState(String(initial));
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  const save = useSaveSettings(() => ({ [setting]: value }));
  return (
    <Card title={title} className="mt-6">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <p className="text-sm text-slate-700">{children}</p>
        <label className="block max-w-xs text-xs font-medium text-slate-700">
          {label}
          <input
            className={inputClass}
            inputMode="numeric"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={helpId}
          />
        </label>
        <p id={helpId} className="text-xs text-slate-600">
          {help}
        </p>
        {save.isError && <ErrorNote>{errorMessage(save.error)}</ErrorNote>}
        {save.isSuccess && (
          <p role="status" className="text-sm text-emerald-800">
            {saved(value)}
          </p>
        )}
        <Button type="submit" disabled={save.isPending || value === initial || text.trim() === ""}>
          {saveLabel}
        </Button>
      </form>
    </Card>
  );
}
