-- Event ids become 64-bit: the columns and the sequences behind them (a serial's sequence is an integer one, which
-- would stop at 2^31 - 1 whatever the column). Prisma's own diff writes SET DATA TYPE BIGSERIAL, which PostgreSQL
-- refuses: this is the change it means.
ALTER TABLE "AgentJobEvent" ALTER COLUMN "id" SET DATA TYPE BIGINT;
ALTER SEQUENCE "AgentJobEvent_id_seq" AS BIGINT;

ALTER TABLE "AnalyticsEvent" ALTER COLUMN "id" SET DATA TYPE BIGINT;
ALTER SEQUENCE "AnalyticsEvent_id_seq" AS BIGINT;
