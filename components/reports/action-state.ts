/** What a report server action answers the form that called it. */
export type TActionState = {
  ok: boolean;
  error: string | null;
  message: string | null;
  /** Per content path, why a value was refused (nothing was stored). */
  fieldErrors?: Record<string, string>;
};
