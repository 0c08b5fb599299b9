"use client";

import { useState } from "react";
import { inputClass } from "@/components/ui";
import type { TEnumValue } from "@/lib/reports/goaml/schema";

/** A searchable checklist of a goAML schema's codes with their labels (indicators, in reports and in Settings). */
export function CodeChecklist({
  codes,
  chosen,
  onToggle,
  disabled = false,
  testIdPrefix,
  noun = "codes",
}: {
  codes: TEnumValue[];
  chosen: string[];
  onToggle: (code: string, on: boolean) => void;
  disabled?: boolean;
  testIdPrefix?: string;
  noun?: string;
}) {
  const [query, setQuery] = useState("");
  // A chosen code the list lacks (the FIU's schema changed) stays visible, ticked, so it can be unticked.
  const stale = chosen.filter((code) => !codes.some((c) => c.value === code));
  const q = query.trim().toLowerCase();
  const shown = codes.filter(
    (c) => !q || c.value.toLowerCase().includes(q) || (c.label ?? "").toLowerCase().includes(q),
  );
  return (
    <div className="space-y-2">
      <input
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={`Search ${codes.length} ${noun} by code or description`}
        className={inputClass}
        disabled={disabled}
        data-testid={testIdPrefix ? `${testIdPrefix}-search` : undefined}
      />
      {stale.length > 0 && (
        <div className="space-y-1 rounded-md border border-red-300 bg-red-50 p-2" data-testid="stale-codes">
          {stale.map((code) => (
            <label key={code} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5"
                checked
                onChange={(e) => onToggle(code, e.target.checked)}
                disabled={disabled}
                data-testid={testIdPrefix ? `${testIdPrefix}-${code}` : undefined}
              />
              <span className="min-w-0 break-words">
                <span className="font-mono">{code}</span>
                <span className="text-red-800"> — not a code of the active schema; untick it or map it</span>
              </span>
            </label>
          ))}
        </div>
      )}
      <div className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2" tabIndex={0}>
        {shown.map((c) => (
          <label key={c.value} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={chosen.includes(c.value)}
              onChange={(e) => onToggle(c.value, e.target.checked)}
              disabled={disabled}
              data-testid={testIdPrefix ? `${testIdPrefix}-${c.value}` : undefined}
            />
            <span>
              <span className="font-mono">{c.value}</span>
              {c.label && c.label !== c.value && <span className="text-slate-600"> — {c.label}</span>}
            </span>
          </label>
        ))}
        {shown.length === 0 && <p className="text-sm text-slate-600">No code matches “{query}”.</p>}
      </div>
    </div>
  );
}
