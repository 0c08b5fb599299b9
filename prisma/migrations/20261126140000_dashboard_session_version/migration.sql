-- A dashboard session carries the version it was signed in at; a session whose version is behind the
-- user's is refused. The trigger moves the version on every change that must end existing sessions, so
-- no code path (dashboard, CLI, a later feature, a manual UPDATE) can change a role, a password or
-- disable an account and leave old cookies working. Sign-out moves it explicitly.
ALTER TABLE "dashboard_users" ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION dashboard_users_end_sessions() RETURNS trigger AS $$
BEGIN
  IF NEW."role" IS DISTINCT FROM OLD."role"
     OR NEW."passwordHash" IS DISTINCT FROM OLD."passwordHash"
     OR NEW."email" IS DISTINCT FROM OLD."email"
     OR NEW."clientId" IS DISTINCT FROM OLD."clientId"
     OR NEW."disabledAt" IS DISTINCT FROM OLD."disabledAt" THEN
    NEW."sessionVersion" := GREATEST(NEW."sessionVersion", OLD."sessionVersion" + 1);
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER dashboard_users_end_sessions
  BEFORE UPDATE ON "dashboard_users"
  FOR EACH ROW EXECUTE FUNCTION dashboard_users_end_sessions();
