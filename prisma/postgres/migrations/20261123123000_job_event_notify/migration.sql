-- Every new job event is announced on the channel scribe_job_events, with its job id as the payload, whoever wrote
-- it (any process, any code path): each process LISTENs once and wakes the open event streams of that job.
-- Migrations are applied through Prisma's schema engine, which sends a script statement by statement, cut at every
-- semicolon: the function body spells its semicolons as \073 inside an E'' string so that it stays one statement.
CREATE OR REPLACE FUNCTION scribe_notify_job_event() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN PERFORM pg_notify(''scribe_job_events'', NEW."jobId")\073 RETURN NULL\073 END';

CREATE TRIGGER "AgentJobEvent_notify" AFTER INSERT ON "AgentJobEvent" FOR EACH ROW EXECUTE FUNCTION scribe_notify_job_event();
