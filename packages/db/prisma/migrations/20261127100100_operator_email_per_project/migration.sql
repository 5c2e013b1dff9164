-- An operator account belongs to one project, and an e-mail is unique within a project only: adding
-- an operator whose e-mail another project uses creates this project's own account, exactly like any
-- other e-mail, so nothing tells one tenant who works for another. Sign-in finds the account by the
-- e-mail and the password together.
DROP INDEX "operator_email_key";
CREATE UNIQUE INDEX "operator_project_id_email_key" ON "operator"("project_id", "email");
-- Sign-in looks accounts up by e-mail alone.
CREATE INDEX "operator_email_idx" ON "operator"("email");
