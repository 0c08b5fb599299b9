export function statusTone(status: string): "green" | "amber" | "blue" | "slate" | "red" {
  if (status === "active") return "green";
  if (status === "dry-run") return "blue";
  if (status === "draft") return "amber";
  if (status === "archived") return "red";
  return "slate";
}
