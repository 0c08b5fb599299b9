"use client";

import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { errorMessage } from "@/components/api/client";
import { ConditionInput, type TCompletion } from "@/components/rules/condition-input";
import { useRuleValidation, useSaveDraft } from "@/components/rules/hooks";
import { definitionFromForm, type TAggregateRow, type TRuleForm } from "@/components/rules/rule-form-state";
import { Button, Card, ErrorNote, cx, inputClass } from "@/components/ui";
import type { TFieldError } from "@/lib/admin/validate-rule-draft";
import { formatEnum } from "@/lib/format";
import { RULE_RISK_LEVELS } from "@/lib/risk/risk-levels";
import { distinctPlan, rawWindowReason } from "@/lib/rules/aggregate-cost";
import { AGGREGATE_FUNCTIONS, AGGREGATE_OVER, RULE_SUBJECTS } from "@/lib/rules/schemas";

function Field({
  label,
  htmlFor,
  errors,
  children,
}: {
  label: string;
  htmlFor: string;
  errors?: TFieldError[];
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children}
      {errors?.map((e, i) => (
        <p key={i} className="mt-1 text-xs text-red-700" data-testid={`error-${htmlFor}`}>
          {e.message}
        </p>
      ))}
    </div>
  );
}

function Select({
  id,
  value,
  options,
  onChange,
  disabled,
  raw,
  label,
}: {
  id: string;
  /** The accessible name when no <label> points at the select. */
  label?: string;
  value: string;
  options: readonly string[];
  onChange: (v: string) => void;
  disabled?: boolean;
  /** Shows the values as they are written in rules (aggregate functions), not as labels. */
  raw?: boolean;
}) {
  return (
    <select
      id={id}
      aria-label={label}
      className={inputClass}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {raw ? o : formatEnum(o)}
        </option>
      ))}
    </select>
  );
}

const NEW_AGGREGATE: TAggregateRow = {
  name: "",
  function: "count",
  over: "transaction",
  groupBy: "userId",
  window: "24h",
  field: "",
  where: "",
};

/**
 * Create or edit a rule. Every change is validated by the rule engine (debounced) and the messages
 * appear under their fields: only ever those of the form as it now stands (the form holds what the
 * author typed and nothing else; an answer for earlier text is dropped). Saving writes a new draft
 * version, which never changes what screens (publishing is the status control's job). A field's
 * problems show once it has been touched, so a new form does not open covered in "Required".
 */
export function RuleEditor({
  initial,
  mode,
  enabledActions,
  locked,
  completions,
  basedOn,
}: {
  initial: TRuleForm;
  mode: "new" | "edit";
  enabledActions: string[];
  /** Read-only (roles that read rules only). */
  locked: boolean;
  /** Declared fields per subject, for the condition's autocompletion. */
  completions: Record<string, TCompletion[]>;
  /** The version the form was loaded from: the screening live version, a switched-off one, or a draft. */
  basedOn?: { version: number; kind: "live" | "off" | "draft" };
}) {
  const router = useRouter();
  const [form, setForm] = useState<TRuleForm>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set(mode === "edit" ? ["*"] : []));
  const definition = definitionFromForm(form);
  const validation = useRuleValidation(definition);
  const shown = (field: string) => touched.has("*") || touched.has(field.split(".")[0]!);
  const errors = (validation.result?.errors ?? []).filter((e) => shown(e.field));
  const errorsFor = (field: string) => errors.filter((e) => e.field === field);
  // the id of a new rule is checked on save (uniqueness), so its "draft" stand-in is not shown
  const otherErrors = errors.filter(
    (e) =>
      !["condition", "name", "reason", "recommendedAction"].includes(e.field) &&
      !e.field.startsWith("aggregates."),
  );
  const save = useSaveDraft(mode === "edit" ? form.id : null);

  const set = <K extends keyof TRuleForm>(key: K, value: TRuleForm[K]) => {
    setTouched((t) => new Set([...t, key]));
    setForm((f) => ({ ...f, [key]: value }));
  };
  const setAggregate = (index: number, patch: Partial<TAggregateRow>) => {
    setTouched((t) => new Set([...t, "aggregates"]));
    setForm((f) => ({
      ...f,
      aggregates: f.aggregates.map((a, i) => (i === index ? { ...a, ...patch } : a)),
    }));
  };
  const fieldCompletions = [
    ...(completions[form.subject] ?? []),
    ...form.aggregates
      .filter((a) => a.name)
      .map((a) => ({ label: `aggregates.${a.name}`, detail: `${a.function} over ${a.window}` })),
  ];

  return (
    <Card
      title={
        mode === "new"
          ? "New rule"
          : basedOn?.kind === "live"
            ? `Edit: a new draft from live v${basedOn.version}`
            : basedOn?.kind === "off"
              ? `Edit: a new draft from v${basedOn.version} (switched off)`
              : `Edit draft v${basedOn?.version ?? ""}`
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(new Set(["*"]));
          save.mutate(definition, {
            onSuccess: (written) => {
              router.push(`/dashboard/rules/${encodeURIComponent(written.ruleId)}?saved=${written.version}`);
              router.refresh();
            },
          });
        }}
      >
        <fieldset disabled={locked} className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Field label="Rule id" htmlFor="rule-id">
            <input
              id="rule-id"
              className={inputClass}
              value={form.id}
              disabled={mode === "edit" || locked}
              onChange={(e) => set("id", e.target.value)}
              placeholder="TX-BIG-AMOUNT"
            />
          </Field>
          <Field label="Name" htmlFor="rule-name" errors={errorsFor("name")}>
            <input
              id="rule-name"
              className={inputClass}
              value={form.name}
              onChange={(e) => set("name", e.target.value)}
            />
          </Field>
          <Field label="Subject" htmlFor="rule-subject" errors={errorsFor("subject")}>
            <Select
              id="rule-subject"
              value={form.subject}
              options={RULE_SUBJECTS}
              onChange={(v) => set("subject", v)}
              disabled={locked || mode === "edit"}
            />
          </Field>
          <Field label="Risk level" htmlFor="rule-level" errors={errorsFor("riskLevel")}>
            <Select
              id="rule-level"
              value={form.riskLevel}
              options={RULE_RISK_LEVELS}
              onChange={(v) => set("riskLevel", v)}
              disabled={locked}
            />
          </Field>
          <Field label="Recommended action" htmlFor="rule-action" errors={errorsFor("recommendedAction")}>
            <Select
              id="rule-action"
              value={form.recommendedAction}
              options={enabledActions}
              onChange={(v) => set("recommendedAction", v)}
              disabled={locked}
            />
          </Field>
          <div className="md:col-span-2">
            <Field label="Condition (CEL)" htmlFor="rule-condition" errors={errorsFor("condition")}>
              <ConditionInput
                id="rule-condition"
                value={form.condition}
                onChange={(v) => set("condition", v)}
                completions={fieldCompletions}
                problems={errorsFor("condition")}
                disabled={locked}
              />
            </Field>
            <p className="mt-1 text-xs text-slate-600" data-testid="validation-state">
              {validation.checking
                ? "Checking…"
                : validation.result?.valid
                  ? "Valid"
                  : errors.length
                    ? `${errors.length} problem${errors.length === 1 ? "" : "s"}`
                    : ""}
            </p>
          </div>
          <div className="md:col-span-2">
            <Field label="Reason" htmlFor="rule-reason" errors={errorsFor("reason")}>
              <input
                id="rule-reason"
                className={inputClass}
                value={form.reason}
                onChange={(e) => set("reason", e.target.value)}
              />
            </Field>
          </div>
        </fieldset>

        <div>
          <div className="mb-2 flex items-center justify-between">
            <h3 className="text-sm font-semibold text-slate-800">Aggregates</h3>
            {!locked && (
              <Button
                variant="secondary"
                onClick={() =>
                  set("aggregates", [
                    ...form.aggregates,
                    { ...NEW_AGGREGATE, name: `agg${form.aggregates.length + 1}` },
                  ])
                }
              >
                Add aggregate
              </Button>
            )}
          </div>
          {form.aggregates.length === 0 && (
            <p className="text-sm text-slate-500">None. Refer to one in the condition as aggregates.name.</p>
          )}
          <fieldset disabled={locked} className="space-y-3">
            {form.aggregates.map((a, i) => {
              const aggErrors = errors.filter(
                (e) => e.field === `aggregates.${a.name}` || e.field.startsWith(`aggregates.${a.name}.`),
              );
              return (
                <div key={i} className="rounded-md border border-slate-200 p-3">
                  <div
                    className="mb-1 hidden grid-cols-6 gap-2 text-xs text-slate-500 md:grid"
                    aria-hidden="true"
                  >
                    {["name", "function", "over", "groupBy", "window", "field"].map((h) => (
                      <span key={h}>{h}</span>
                    ))}
                  </div>
                  <div className="grid grid-cols-2 gap-2 md:grid-cols-6">
                    <input
                      aria-label="Aggregate name"
                      className={inputClass}
                      value={a.name}
                      onChange={(e) => setAggregate(i, { name: e.target.value })}
                    />
                    <Select
                      id={`agg-${i}-function`}
                      label="Aggregate function"
                      raw
                      value={a.function}
                      options={AGGREGATE_FUNCTIONS}
                      onChange={(v) => setAggregate(i, { function: v })}
                      disabled={locked}
                    />
                    <Select
                      id={`agg-${i}-over`}
                      label="Aggregate over"
                      raw
                      value={a.over}
                      options={AGGREGATE_OVER}
                      onChange={(v) => setAggregate(i, { over: v })}
                      disabled={locked}
                    />
                    <input
                      aria-label="Group by"
                      placeholder="groupBy"
                      className={inputClass}
                      value={a.groupBy}
                      onChange={(e) => setAggregate(i, { groupBy: e.target.value })}
                    />
                    <input
                      aria-label="Window"
                      placeholder="24h"
                      className={inputClass}
                      value={a.window}
                      onChange={(e) => setAggregate(i, { window: e.target.value })}
                    />
                    <input
                      aria-label="Field"
                      placeholder="field (amount)"
                      className={inputClass}
                      value={a.field}
                      onChange={(e) => setAggregate(i, { field: e.target.value })}
                    />
                  </div>
                  <div className="mt-2 flex gap-2">
                    <input
                      aria-label="Where"
                      placeholder={`where (CEL over ${a.over}), optional`}
                      className={cx(inputClass, "font-mono")}
                      value={a.where}
                      onChange={(e) => setAggregate(i, { where: e.target.value })}
                    />
                    {!locked && (
                      <Button
                        variant="ghost"
                        onClick={() =>
                          set(
                            "aggregates",
                            form.aggregates.filter((_, j) => j !== i),
                          )
                        }
                      >
                        Remove
                      </Button>
                    )}
                  </div>
                  <AggregateCost aggregate={a} />
                  {aggErrors.map((e, k) => (
                    <p key={k} className="mt-1 text-xs text-red-700">
                      {e.field}: {e.message}
                    </p>
                  ))}
                </div>
              );
            })}
          </fieldset>
        </div>

        {otherErrors.map((e, i) => (
          <p key={i} className="text-xs text-red-700">
            {e.field}: {e.message}
          </p>
        ))}
        {save.isError && <ErrorNote>{errorMessage(save.error)}</ErrorNote>}
        {!locked && (
          <div className="flex flex-wrap items-center justify-end gap-3">
            <p className="text-xs text-slate-600" data-testid="save-note">
              {mode === "new"
                ? "The rule is created as a draft: it screens nothing until it is published."
                : basedOn?.kind === "live"
                  ? `Saving creates a new draft from v${basedOn.version}; the live version keeps screening until you publish.`
                  : "Saving creates a new draft; screening does not change until a version is published."}
            </p>
            <Button type="submit" disabled={save.isPending || !validation.result?.valid}>
              {save.isPending ? "Saving…" : mode === "new" ? "Create draft" : "Save draft"}
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}

/**
 * What the aggregate costs at each screening: read from the time buckets (the same whatever the window
 * and the history), from distinct values per day (countDistinct), or from the raw rows of its window (the
 * more rows in it, the slower every screening).
 */
function AggregateCost({ aggregate }: { aggregate: TAggregateRow }) {
  const shape = { ...aggregate, where: aggregate.where.trim() || undefined };
  const reason = rawWindowReason(shape);
  return reason ? (
    <p className="mt-1 text-xs [overflow-wrap:anywhere] text-amber-800" data-testid="aggregate-cost">
      Reads the raw window: {reason}. Each screening reads every row in the window, so its cost grows with
      them.
    </p>
  ) : distinctPlan(shape) ? (
    <p className="mt-1 text-xs text-slate-500" data-testid="aggregate-cost">
      Reads distinct values per day: the window&apos;s whole days from day totals, its two ragged days from
      their rows. Its cost grows with the distinct values per day, not with the transactions.
    </p>
  ) : (
    <p className="mt-1 text-xs text-slate-500" data-testid="aggregate-cost">
      Reads time buckets: its cost does not grow with the window or the history.
    </p>
  );
}
