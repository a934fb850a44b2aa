-- 0012: reminders as desktop notifications (issue 23, docs/operations.md "Notifications").
-- plan_reminder: a plan's own choice (`plan remind ID on|off [--lead 15m]`); without a row the
-- plan is reminded with the daemon's `--remind-lead`.
CREATE TABLE plan_reminder (
    plan_id              INTEGER PRIMARY KEY REFERENCES plan(id) ON DELETE CASCADE,
    enabled              INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    lead_s               REAL                -- seconds before leaving; NULL: the daemon's lead
);

-- sent_notification: every notification sent (or, without a server, announced on `watch`), so
-- that a restart does not send it again. `notice` names it within the plan (e.g.
-- "leave@2022-01-12", "change:pending_update:3"); server_id is the server's ID,
-- which the plan's next notice replaces (NULL: none was shown).
CREATE TABLE sent_notification (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    notice               TEXT NOT NULL,
    server_id            INTEGER,
    sent_at              REAL NOT NULL,
    PRIMARY KEY (plan_id, notice)
) WITHOUT ROWID;
