import { requirePagePermission } from "@/lib/auth/permissions";
import { SanctionsDatasetsCard } from "@/components/sanctions/sanctions-datasets-card";
import { SettingsForm } from "@/components/settings/settings-form";
import { PageHeader } from "@/components/ui";
import { getClientSettings } from "@/lib/admin/settings";
import { listSanctionsDatasets } from "@/lib/sanctions/list-sanctions-datasets";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const user = await requirePagePermission("settings.manage");
  const [settings, sanctionsDatasets] = await Promise.all([getClientSettings(user), listSanctionsDatasets()]);
  return (
    <div className="max-w-5xl">
      <PageHeader title="Settings" subtitle={`${settings.name} · ${settings.type} client`} />
      <SettingsForm initial={settings} />
      <SanctionsDatasetsCard datasets={sanctionsDatasets} />
    </div>
  );
}
