import { Badge, LevelBadge } from "@/components/ui";
import { formatEnum } from "@/lib/format";

const STATUS_TONES = { open: "amber", in_review: "blue", escalated: "red", closed: "green" } as const;

export function CaseStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={STATUS_TONES[status as keyof typeof STATUS_TONES] ?? "slate"}>{formatEnum(status)}</Badge>
  );
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <LevelBadge level={priority} />;
}

export function OverdueBadge() {
  return <Badge tone="red">Overdue</Badge>;
}
