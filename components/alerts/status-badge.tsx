import { Badge } from "@/components/ui";
import { formatEnum } from "@/lib/format";

const TONES = { open: "amber", cleared: "green", confirmed: "red", escalated: "blue" } as const;

export function AlertStatusBadge({ status }: { status: string }) {
  return <Badge tone={TONES[status as keyof typeof TONES] ?? "slate"}>{formatEnum(status)}</Badge>;
}
