import { registerEndpoint } from "@/lib/openapi/registry";
import { ZUserLinksQuery, ZUserLinksResponse } from "@/lib/links/schemas";

registerEndpoint({
  method: "get",
  path: "/v1/users/{userId}/links",
  tag: "Users",
  summary: "Users linked to a user",
  description:
    "Two users are linked when they share a value of an identifier kind (phone, email, ipAddress, deviceFingerprint, bankAccountNumber, " +
    "cryptoAddress, walletTaxNumberId, walletPhone, cardFingerprint), taken from user records, devices and the transactions they sent. " +
    "`depth=2` adds the users linked to a depth-1 user (never the user itself; each user once, at its smallest depth, with the values " +
    "that link it to a depth-1 user in `via`). `kinds` limits the kinds that link. A value shared by more users than the client's " +
    "fan-out cap (Settings, default 50) links nobody and is listed in `capped` with its number of users. Links are ordered by depth, " +
    "then user id; `via` and `capped` by kind, then value.",
  query: ZUserLinksQuery,
  response: ZUserLinksResponse,
  errors: {
    400: "`depth` other than 1 or 2, or an unknown kind in `kinds` (VALIDATION_ERROR)",
    404: "Unknown user (NOT_FOUND, `/userId: User not found`); another client's user ids answer the same",
  },
});
