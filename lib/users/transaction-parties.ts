// Who a stored transaction involves, read from its columns and its request body.

type TStoredTransaction = { userId: string | null; data: unknown };

function obj(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function id(value: unknown): string | undefined {
  const v = obj(value)?.id;
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** The sender: the userId column, else `userId` or `user.id` of the body. */
export function transactionUserId(transaction: TStoredTransaction): string | undefined {
  if (transaction.userId) return transaction.userId;
  const data = obj(transaction.data);
  const userId = data?.userId;
  if (typeof userId === "string" && userId !== "") return userId;
  return id(data?.user);
}

/** The recipients: `recipient.id` or every `recipients[].id`. */
export function transactionRecipientIds(transaction: TStoredTransaction): string[] {
  const data = obj(transaction.data);
  const ids: string[] = [];
  const single = id(data?.recipient);
  if (single) ids.push(single);
  if (Array.isArray(data?.recipients)) {
    for (const r of data.recipients) {
      const rid = id(r);
      if (rid) ids.push(rid);
    }
  }
  return [...new Set(ids)];
}
