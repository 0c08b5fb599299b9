// List kinds in words (never the raw enum), with what an entry of each kind looks like.
export const KIND_LABELS: Record<string, { label: string; example: string }> = {
  string: { label: "Text", example: "any text, compared case-insensitively" },
  email: { label: "Email address", example: "mule@example.com" },
  country: { label: "Country code", example: "IR (ISO 3166-1 alpha-2)" },
  ip: { label: "IP address or range", example: "203.0.113.7, 198.51.100.0/24, 2001:db8::/32" },
  cardFingerprint: { label: "Card fingerprint", example: "the card fingerprint your payment provider sends" },
  deviceId: { label: "Device ID", example: "the device id sent in userDevice.id" },
  name: { label: "Name", example: "Jane Doe, compared case-insensitively" },
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind]?.label ?? kind;
}
