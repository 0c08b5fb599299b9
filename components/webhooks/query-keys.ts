// Query keys of the webhooks screen.
export const webhookKeys = {
  all: ["webhooks"] as const,
  subscriptions: ["webhooks", "subscriptions"] as const,
  deliveries: (failedOnly: boolean) => ["webhooks", "deliveries", { failedOnly }] as const,
  allDeliveries: ["webhooks", "deliveries"] as const,
};
