import { registerEndpoint } from "@/lib/openapi/registry";
import {
  ZAddUserDevice,
  ZAddUserDeviceResponse,
  ZAttributeStatus,
  ZAttributeStatusResponse,
  ZBlockedUsersQuery,
  ZBlockedUsersResponse,
  ZBlockUser,
  ZCreateUserResponse,
  ZTransactionPartiesStatus,
  ZTransactionPartiesStatusResponse,
  ZUpdateUserStatus,
  ZUser,
  ZUserFeedback,
  ZUserFeedbackResponse,
  ZUserResponse,
  ZUserStatusResponse,
} from "@/lib/users/schemas";

const tag = "Users";
const userNotFound =
  "Unknown user (NOT_FOUND, `/userId: User not found`); another client's user ids answer the same";

registerEndpoint({
  method: "post",
  path: "/v1/user",
  tag,
  summary: "Create or update a user",
  description:
    "Creates the user, or updates it when the id is known: `createdAt` stays the first `timestamp` ever sent, every other field is replaced by the new body. " +
    "No screening (use POST /v1/user/onboard). `status` is case-insensitive; PENDING and APPROVED are stored as active, DECLINED as inactive; " +
    "a body without `status` keeps the current status. Setting a status here records it in the status history but emits no webhook " +
    "(user.status.block / unblock come from the block, unblock and status operations). " +
    "`timestamp` may not be more than 5 seconds ahead of the server clock. An inline `userDevice` is stored as by POST /v1/user/device.",
  body: ZUser,
  response: ZCreateUserResponse,
});

registerEndpoint({
  method: "post",
  path: "/v1/user/feedback",
  tag,
  summary: "Record the onboarding outcome of a user",
  description:
    "Stores `onboardingFeedback` (and optional amlDetail, kycDetail, referralCode, referrerCode) on the user. Effect on the status: " +
    "APPROVED → active, DECLINED → inactive, BLOCKED → blocked, PENDING → unchanged. Changes go through the same path as block/unblock: " +
    "recorded in the status history, and user.status.block (or user.status.unblock when a blocked user is approved or declined) is emitted when the status changed.",
  body: ZUserFeedback,
  response: ZUserFeedbackResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "post",
  path: "/v1/user/device",
  tag,
  summary: "Record a device of a user",
  description:
    "Stores the device (first and last seen) and links its ipAddress and fingerprint to the user for PUT /v1/users/attributes/status. " +
    "A device id already linked to another user moves to this user; earlier users keep their attribute links.",
  body: ZAddUserDevice,
  response: ZAddUserDeviceResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "get",
  path: "/v1/users/{userId}",
  tag,
  summary: "Read a user",
  description:
    "`status` is lowercase (active, inactive, blocked); `reason` is the reason of the latest status change, or null.",
  response: ZUserResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "get",
  path: "/v1/users/transactions/{transactionId}",
  tag,
  summary: "Read the user of a transaction",
  response: ZUserResponse,
  errors: {
    404: "Unknown transaction (`/transactionId: Transaction not found`) or its user is not stored (`/userId: User not found`)",
  },
});

const statusChange =
  "Answers `{ id, status, updatedAt, changed }`; `changed` is false when the user already had that status, and then nothing is recorded and no webhook is sent. " +
  "Each change is kept in the status history with comment, reviewer and time.";

registerEndpoint({
  method: "put",
  path: "/v1/users/{userId}/block",
  tag,
  summary: "Block a user",
  description: `${statusChange} Emits user.status.block with reason built from comment and reviewer ("<comment> (reviewer: <reviewer>)"). The body may be omitted.`,
  body: ZBlockUser,
  response: ZUserStatusResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "put",
  path: "/v1/users/{userId}/unblock",
  tag,
  summary: "Unblock a user (status active)",
  description: `${statusChange} Emits user.status.unblock when the user was blocked. The body may be omitted.`,
  body: ZBlockUser,
  response: ZUserStatusResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "put",
  path: "/v1/users/{userId}/status",
  tag,
  summary: "Set a user active or inactive",
  description:
    `${statusChange} \`initiatedBy\` is recorded as the reviewer and \`reason\` as the reason code; closureType and completedAt are kept in the history. ` +
    "`status` (active or inactive) is case-insensitive. A blocked user set active emits user.status.unblock. " +
    "Without `status` nothing changes and the current state is returned.",
  body: ZUpdateUserStatus,
  response: ZUserStatusResponse,
  errors: { 404: userNotFound },
});

registerEndpoint({
  method: "get",
  path: "/v1/users/blocked",
  tag,
  summary: "List blocked users",
  description:
    "Ordered by user id. `start` is exclusive: pass the previous page's `cursor` (the last id returned; null on an empty page). " +
    "`limit` defaults to 100, maximum 1000 (over is a 400). `total` counts all blocked users of the client.",
  query: ZBlockedUsersQuery,
  response: ZBlockedUsersResponse,
});

registerEndpoint({
  method: "put",
  path: "/v1/users/transactions/{transactionId}/status",
  tag,
  summary: "Set the status of a transaction's parties",
  description:
    "`parties`: user (the sender, default), recipient (`recipient.id` or every `recipients[].id` of the stored transaction) or both. " +
    "`status` defaults to blocked. A party known only by id (never sent to POST /v1/user) gets a user record so the status holds; `users` lists every party with its resulting status. " +
    "Block and unblock webhooks as for PUT /v1/users/{userId}/block.",
  body: ZTransactionPartiesStatus,
  response: ZTransactionPartiesStatusResponse,
  errors: { 404: "Unknown transaction (`/transactionId: Transaction not found`)" },
});

registerEndpoint({
  method: "put",
  path: "/v1/users/attributes/status",
  tag,
  summary: "Set the status of every user sharing an attribute",
  description:
    "Matches phone and email of the user profile; ipAddress and deviceFingerprint of the user's devices; bankAccountNumber (bank.accountNumber or bank.ibanFull), " +
    "cryptoAddress, walletTaxNumberId, walletPhone and cardFingerprint (card.cardFingerprint on transactions, card.fingerprint on instruments) of the user's " +
    "transactions and payment instruments. Emails match case-insensitively; phones and account numbers ignore spaces and dashes. " +
    "`status` (UserStatus, case-insensitive) defaults to blocked. `matchedUsers` counts the users matched, including those already in that status; " +
    "a user known only from transactions or instruments gets a user record so the status holds.",
  body: ZAttributeStatus,
  response: ZAttributeStatusResponse,
});
