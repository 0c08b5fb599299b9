-- A dashboard user's email is unique within its client, not across clients: an admin adding a member
-- learns nothing about other clients' users. Sign-in finds the account by email and password (and the
-- organisation's name when one email and password open several).
-- Loosens a constraint only: a process of the previous release keeps working beside it, except that its sign-in
-- finds one account per email, so during a roll an email held in two clients may fail to sign in there.
DROP INDEX "dashboard_users_email_key";
CREATE UNIQUE INDEX "dashboard_users_clientId_email_key" ON "dashboard_users"("clientId", "email");
CREATE INDEX "dashboard_users_email_idx" ON "dashboard_users"("email");
