import { requirePagePermission } from "@/lib/auth/permissions";
import { CaseSlaCard } from "@/components/cases/case-sla-card";
import { SanctionsDatasetsCard } from "@/components/sanctions/sanctions-datasets-card";
import { BaseCurrencyCard } from "@/components/settings/base-currency-card";
import { LinkFanOutCard } from "@/components/settings/link-fan-out-card";
import { RetentionCard } from "@/components/settings/retention-card";
import { SettingsForm } from "@/components/settings/settings-form";
import { PageHeader } from "@/components/ui";
import { getClientSettings } from "@/lib/admin/settings";
import { getCaseSla } from "@/lib/cases/sla";
import { currencyChoices, fxRatesSummary } from "@/lib/fx/fx-rates-summary";
import { listSanctionsDatasets } from "@/lib/sanctions/list-sanctions-datasets";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const user = await requirePagePermission("settings.manage");
  const [settings, sanctionsDatasets, caseSla, rates] = await Promise.all([
    getClientSettings(user),
    listSanctionsDatasets(),
    getCaseSla({ clientId: user.clientId }),
    fxRatesSummary(),
  ]);
  return (
    <div className="max-w-5xl">
      <PageHeader title="Settings" subtitle={`${settings.name} · ${settings.type} client`} />
      {/* Mapping stale codes changes the stored profile: the form starts again from it. */}
      <SettingsForm
        key={`${settings.goaml.name}|${settings.misfits.codes.map((c) => `${c.list}:${c.code}`).join(",")}`}
        initial={settings}
      />
      <CaseSlaCard initial={caseSla} />
      <BaseCurrencyCard initial={settings.baseCurrency} rates={rates} currencies={currencyChoices()} />
      <LinkFanOutCard initial={settings.linkFanOutCap} />
      <RetentionCard initial={settings.retentionMonths} />
      <SanctionsDatasetsCard datasets={sanctionsDatasets} />
    </div>
  );
}
