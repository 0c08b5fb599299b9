import { requirePagePermission } from "@/lib/auth/permissions";
import { RuleEditor } from "@/components/rules/rule-editor";
import { emptyForm } from "@/components/rules/rule-form-state";
import { PageHeader } from "@/components/ui";
import { clientRuleActions } from "@/lib/admin/get-rule-detail";
import { ruleCompletions } from "@/lib/rules/rule-types";

export const dynamic = "force-dynamic";

export default async function NewRulePage() {
  const user = await requirePagePermission("rules.draft");
  const actions = await clientRuleActions(user);
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="New rule"
        subtitle="The condition is checked against the declared fields as you type. A new rule is a draft: it screens nothing until it is published."
      />
      <RuleEditor
        mode="new"
        initial={emptyForm(actions.includes("REVIEW") ? "REVIEW" : (actions[0] ?? "ALLOW"))}
        enabledActions={actions}
        locked={false}
        completions={ruleCompletions()}
      />
    </div>
  );
}
