import { ApiKeysScreen } from "@/components/api-keys/api-keys-screen";
import { PageHeader } from "@/components/ui";
import { requirePageRole } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  await requirePageRole(["admin"]);
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
