-- The fold's watermark (the "folded" row) is written only by a transaction holding the analytics derived lock
-- (advisory lock 72707381, src/analytics/store/sql.ts). A fold of an earlier release held the write lock instead, which
-- this release's folds do not wait for: while replicas of both run (a rolling upgrade), the two could derive the same
-- events, and every view count of them would be counted twice. Such a fold's transaction fails here instead, and what
-- it derived is rolled back with it. (The function body spells its semicolons as \073: see job_event_notify.)
CREATE FUNCTION scribe_guard_folded_mark() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = ''advisory'' AND pid = pg_backend_pid() AND granted AND classid = 0 AND objid = 72707381 AND objsubid = 1) THEN RAISE EXCEPTION ''the fold watermark is written only under the analytics derived lock (advisory lock 72707381): a fold of an earlier Scribe release, which takes the write lock instead, cannot run beside this one'' USING ERRCODE = ''lock_not_available''\073 END IF\073 RETURN NEW\073 END';

CREATE TRIGGER "AnalyticsState_folded_guard" BEFORE INSERT OR UPDATE ON "AnalyticsState" FOR EACH ROW WHEN (NEW."name" = 'folded') EXECUTE FUNCTION scribe_guard_folded_mark();
