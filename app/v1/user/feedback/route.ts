// POST /v1/user/feedback: record the onboarding outcome of a user
import { methods, withClient } from "@/lib/http/with-client";
import { recordUserFeedback } from "@/lib/users/record-user-feedback";
import { ZUserFeedback } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => {
    const feedback = await body(ZUserFeedback);
    const { userId } = await recordUserFeedback({ clientId: client.id, feedback });
    return { message: "Feedback recorded", userId };
  }),
});
