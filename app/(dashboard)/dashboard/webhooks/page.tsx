import { requirePagePermission } from "@/lib/auth/permissions";
import { PageHeader } from "@/components/ui";
import { WebhooksScreen } from "@/components/webhooks/webhooks-screen";

export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  await requirePagePermission("webhooks.manage");
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Webhooks"
        subtitle="Signed deliveries (X-Service-Signature); failed deliveries can be sent again."
      />
      <WebhooksScreen />
    </div>
  );
}
