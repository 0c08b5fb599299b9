import { can, requirePagePermission } from "@/lib/auth/permissions";
import { notFound } from "next/navigation";
import { BacktestPanel } from "@/components/rules/backtest-panel";
import { RuleEditor } from "@/components/rules/rule-editor";
import { formFromDefinition } from "@/components/rules/rule-form-state";
import { StatusControl } from "@/components/rules/status-control";
import { VersionHistory } from "@/components/rules/version-history";
import { Card, EnumLabel, PageHeader } from "@/components/ui";
import { latestBacktest } from "@/lib/backtest/run-backtest";
import { ruleCompletions } from "@/lib/rules/rule-types";
import { getRuleDetail, type TRuleDetail } from "@/lib/admin/get-rule-detail";
import { DomainError } from "@/lib/errors/domain-error";

export const dynamic = "force-dynamic";

export default async function RulePage({
  params,
  searchParams,
}: {
  params: Promise<{ ruleId: string }>;
  searchParams: Promise<{ saved?: string; published?: string }>;
}) {
  const user = await requirePagePermission("rules.read");
  const { ruleId } = await params;
  const { saved, published } = await searchParams;
  let rule: TRuleDetail;
  try {
    rule = await getRuleDetail(user, { ruleId: decodeURIComponent(ruleId) });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  const editing = rule.versions.find((v) => v.version === rule.editingVersion) ?? rule.versions[0]!;
  const live = rule.versions.find((v) => v.isLive);
  const draft = rule.editingVersion !== rule.liveVersion ? editing : null;
  const canPublish = can(user.role, "rules.manage");
  const canWrite = can(user.role, "rules.draft");
  const backtest = await latestBacktest(user, { ruleId: rule.ruleId });
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title={rule.ruleId}
        subtitle={
          <>
            {(live ?? editing).definition.name} · <EnumLabel value={rule.subject} /> rule ·{" "}
            {rule.versions.length === 1 ? "1 version" : `${rule.currentVersion} versions`}
          </>
        }
      />
      {saved && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
          data-testid="saved-note"
        >
          Saved as draft v{saved}. It does not screen until published.
        </p>
      )}
      {published && rule.liveVersion === Number(published) && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
          data-testid="published-note"
        >
          Published v{published} as <EnumLabel value={rule.status} />, from the next screening on.
        </p>
      )}
      <Card title="Status">
        <StatusControl
          key={`status-${rule.currentVersion}-${rule.status}-${rule.liveVersion ?? 0}`}
          rule={{
            ruleId: rule.ruleId,
            status: rule.status,
            liveVersion: rule.liveVersion,
            screening: rule.screening,
            draft: draft && {
              version: draft.version,
              createdAt: draft.createdAt,
              createdBy: draft.createdBy,
            },
          }}
          canPublish={canPublish}
          canWrite={canWrite}
        />
      </Card>
      <RuleEditor
        key={editing.id}
        mode="edit"
        initial={formFromDefinition(editing.definition)}
        enabledActions={rule.enabledActions}
        locked={!canWrite}
        completions={ruleCompletions()}
        basedOn={{
          version: editing.version,
          kind: !editing.isLive ? "draft" : rule.screening ? "live" : "off",
        }}
      />
      <BacktestPanel
        key={`backtest-${rule.currentVersion}`}
        ruleId={rule.ruleId}
        versions={rule.versions.map((v) => ({
          version: v.version,
          label: `v${v.version}${v.isLive ? " (live)" : v.definition.status === "draft" ? " (draft)" : ""}`,
        }))}
        defaultVersion={editing.version}
        canRun={canWrite}
        initial={backtest}
      />
      <VersionHistory
        key={`history-${rule.currentVersion}-${rule.liveVersion ?? 0}`}
        versions={rule.versions}
        liveStatus={rule.screening ? rule.status : null}
      />
    </div>
  );
}
