// The editor's form state and its conversion to the import format the engine validates.
import type { TRuleDefinition } from "@/lib/rules/schemas";

export type TAggregateRow = {
  name: string;
  function: string;
  over: string;
  groupBy: string;
  window: string;
  field: string;
  where: string;
};

export type TRuleForm = {
  id: string;
  name: string;
  subject: string;
  riskLevel: string;
  recommendedAction: string;
  reason: string;
  condition: string;
  aggregates: TAggregateRow[];
};

export function formFromDefinition(d: TRuleDefinition): TRuleForm {
  return {
    id: d.id,
    name: d.name,
    subject: d.subject,
    riskLevel: d.riskLevel,
    recommendedAction: d.recommendedAction,
    reason: d.reason,
    condition: d.condition,
    aggregates: Object.entries(d.aggregates ?? {}).map(([name, a]) => ({
      name,
      function: a.function,
      over: a.over,
      groupBy: a.groupBy,
      window: a.window,
      field: a.field ?? "",
      where: a.where ?? "",
    })),
  };
}

export function emptyForm(defaultAction: string): TRuleForm {
  return {
    id: "",
    name: "",
    subject: "transaction",
    riskLevel: "medium",
    recommendedAction: defaultAction,
    reason: "",
    condition: "",
    aggregates: [],
  };
}

export function definitionFromForm(form: TRuleForm): Record<string, unknown> {
  const aggregates: Record<string, unknown> = {};
  for (const a of form.aggregates) {
    aggregates[a.name] = {
      function: a.function,
      over: a.over,
      groupBy: a.groupBy,
      window: a.window,
      // blank optional fields are absent, not empty strings the schema would refuse
      ...(a.field.trim() && { field: a.field.trim() }),
      ...(a.where.trim() && { where: a.where.trim() }),
    };
  }
  return {
    id: form.id.trim(),
    name: form.name,
    subject: form.subject,
    riskLevel: form.riskLevel,
    recommendedAction: form.recommendedAction,
    reason: form.reason,
    condition: form.condition,
    ...(form.aggregates.length && { aggregates }),
  };
}
