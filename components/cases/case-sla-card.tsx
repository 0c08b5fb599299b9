"use client";

import { useState } from "react";
import { useCaseSla, useUpdateCaseSla } from "@/components/cases/hooks";
import { Button, Card, ErrorNote, inputClass } from "@/components/ui";
import { CASE_PRIORITIES, type TCaseSla } from "@/lib/cases/schemas";
import { formatEnum } from "@/lib/format";

/** Admin: hours to work a case of each priority (its due time); audited on save. */
export function CaseSlaCard({ initial }: { initial: TCaseSla }) {
  const { data } = useCaseSla(initial);
  const [draft, setDraft] = useState<Record<string, string>>(
    Object.fromEntries(CASE_PRIORITIES.map((p) => [p, String(data[p])])),
  );
  const save = useUpdateCaseSla();
  const parsed = Object.fromEntries(CASE_PRIORITIES.map((p) => [p, Number(draft[p])])) as TCaseSla;
  const valid = CASE_PRIORITIES.every((p) => Number.isFinite(parsed[p]) && parsed[p] > 0);
  return (
    <Card title="Case SLA" className="mt-6">
      <form
        aria-label="Case SLA"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(parsed);
        }}
      >
        <p className="mb-3 text-sm text-slate-700">
          A case is due this many hours after its first alert. When a higher alert joins, its priority rises
          and the due time moves to the nearer of the two.
        </p>
        <div className="flex flex-wrap gap-3">
          {CASE_PRIORITIES.map((p) => (
            <label key={p} className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              {formatEnum(p)} (hours)
              <input
                type="number"
                min="0.25"
                step="0.25"
                className={`${inputClass} w-28`}
                value={draft[p]}
                onChange={(e) => setDraft({ ...draft, [p]: e.target.value })}
              />
            </label>
          ))}
        </div>
        {save.error && <ErrorNote>{save.error.message}</ErrorNote>}
        {save.isSuccess && (
          <p role="status" className="mt-2 text-sm text-emerald-800">
            Saved. New and re-prioritised cases use these times.
          </p>
        )}
        <div className="mt-3">
          <Button type="submit" disabled={!valid || save.isPending}>
            Save SLA
          </Button>
        </div>
      </form>
    </Card>
  );
}
