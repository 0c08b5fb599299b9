import { requirePagePermission } from "@/lib/auth/permissions";
import { notFound } from "next/navigation";
import { BacktestPanel } from "@/components/rules/backtest-panel";
import { RuleEditor } from "@/components/rules/rule-editor";
import { formFromDefinition } from "@/components/rules/rule-form-state";
import { StatusControl } from "@/components/rules/status-control";
import { VersionHistory } from "@/components/rules/version-history";
import { Card, PageHeader } from "@/components/ui";
import { getRuleDetail, type TRuleDetail } from "@/lib/admin/get-rule-detail";
import { ApiError } from "@/lib/http/errors";

export const dynamic = "force-dynamic";

export default async function RulePage({
  params,
  searchParams,
}: {
  params: Promise<{ ruleId: string }>;
  searchParams: Promise<{ saved?: string }>;
}) {
  const user = await requirePagePermission("rules.read");
  const { ruleId } = await params;
  const { saved } = await searchParams;
  let rule: TRuleDetail;
  try {
    rule = await getRuleDetail(user, { ruleId: decodeURIComponent(ruleId) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  const current = rule.versions[0]!;
  const canPublish = user.role === "admin";
  const canWrite = canPublish || user.role === "reviewer";
  const locked = !canWrite || (!canPublish && rule.status === "active");
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title={rule.ruleId}
        subtitle={`${current.definition.name} · ${rule.subject} rule · version ${rule.currentVersion}`}
      />
      {saved && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
          data-testid="saved-note"
        >
          Saved as version {saved}.
        </p>
      )}
      <Card>
        <StatusControl
          key={`status-${rule.currentVersion}`}
          ruleId={rule.ruleId}
          status={rule.status}
          canPublish={canPublish}
          canWrite={canWrite}
        />
      </Card>
      <RuleEditor
        key={current.id}
        mode="edit"
        initial={formFromDefinition(current.definition)}
        enabledActions={rule.enabledActions}
        canPublish={canPublish}
        locked={locked}
      />
      {canWrite && rule.subject === "transaction" && (
        <BacktestPanel
          key={`backtest-${rule.currentVersion}`}
          ruleId={rule.ruleId}
          versions={rule.versions.map((v) => ({ id: v.id, version: v.version, status: v.definition.status }))}
        />
      )}
      <VersionHistory key={`history-${rule.currentVersion}`} versions={rule.versions} />
    </div>
  );
}
