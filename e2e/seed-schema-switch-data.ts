// The schema-switch client's sign-ins (shared by its seed script and its spec). Hostile: a very long officer name.
export const SWITCH = {
  clientName: "Schema Switch Payments",
  admin: { email: "switch-admin@demo.test", password: "switch-admin-password" },
  officer: { email: "switch-officer@demo.test", password: "switch-officer-password" },
  officerName: `Officer ${"Abcdefghijklmnopqrstuvwxyz".repeat(8)}`,
};
