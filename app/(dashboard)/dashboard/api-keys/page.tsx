import { requirePagePermission } from "@/lib/auth/permissions";
import { ApiKeysScreen } from "@/components/api-keys/api-keys-screen";
import { PageHeader } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  await requirePagePermission("apiKeys.manage");
  return (
    <div className="max-w-5xl">
      <PageHeader
        title="API keys"
        subtitle="Keys authenticate calls to /v1. A key is shown once, when created."
      />
      <ApiKeysScreen />
    </div>
  );
}
