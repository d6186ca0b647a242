import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { JobsConfig } from '../config.js';
import { randomId } from '../ids.js';
import { startHeartbeat } from '../db/lease-queue.js';
import { createPollingWorker, type PollingWorker } from '../db/polling-worker.js';
import { sweepOrphanWorkspaces } from '../git/workspace.js';
import type { JobRecord } from './job-store.js';
import { JobEventLog } from './event-log.js';
import { claimJobs, failRun, finishRun, releaseLease, renewLease, type QueueParams } from './job-queue.js';
import { JobFailure } from './job-failure.js';
import type { StopReason } from './job-status.js';
import type { JobRunner, RunEnd } from './run-types.js';
import type { RunListener } from './job-listeners.js';
import { jobDuration, leaseLosses } from '../metrics/metrics.js';

interface Running {
  job: JobRecord;
  controller: AbortController;
  done: Promise<void>;
  /** renews the lease now and stops the run if the job was archived or taken over */
  check(): void;
}

/**
 * Claims jobs up to the configured concurrency and runs them, renewing each lease by heartbeat. The heartbeat is
 * also how a running job learns it was archived (another process may have archived it), so it is kept short.
 */
export class JobWorker {
  readonly workerId: string;
  private readonly running = new Map<string, Running>();
  private readonly poller: PollingWorker;

  constructor(
    private readonly params: {
      db: Db;
      database: DatabaseTarget;
      clock: Clock;
      logger: Logger;
      jobs: JobsConfig;
      runner: JobRunner;
      /** told how each run ended, unless it was stopped (job-listeners.ts) */
      onRunEnd?: RunListener[];
      workerId?: string;
    },
  ) {
    this.workerId = params.workerId ?? randomId('wrk');
    this.poller = createPollingWorker({
      pollMs: params.jobs.pollMs,
      turn: () => this.claim(),
      failed: (err) => params.logger.error({ err }, 'claiming agent jobs failed'),
    });
  }

  private get queue(): QueueParams {
    const { db, database, clock, jobs } = this.params;
    return { db, database, clock, workerId: this.workerId, leaseMs: jobs.leaseMs };
  }

  start(): void {
    sweepOrphanWorkspaces().then(
      (removed) => removed && this.params.logger.info({ removed }, 'removed workspaces of crashed processes'),
      (err) => this.params.logger.warn({ err }, 'could not sweep old workspaces'),
    );
    this.poller.start();
  }

  /** Looks for work now (a job was just queued in this process) instead of at the next poll. */
  wake(): void {
    this.poller.wake();
  }

  get activeJobIds(): string[] {
    return [...this.running.keys()];
  }

  /** One turn: claims jobs up to the free slots and starts them; true when it filled them (more may wait). */
  private async claim(): Promise<boolean> {
    const free = this.params.jobs.concurrency - this.running.size;
    if (free <= 0) return false;
    const claimed = await claimJobs({ ...this.queue, limit: free });
    for (const job of claimed) this.begin(job);
    return claimed.length === free;
  }

  private begin(job: JobRecord): void {
    const controller = new AbortController();
    const entry: Running = { job, controller, done: Promise.resolve(), check: () => undefined };
    this.running.set(job.id, entry);
    entry.done = this.run(entry).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
  }

  /** A job archived through this process stops now rather than at its next heartbeat. */
  checkNow(jobId: string): void {
    this.running.get(jobId)?.check();
  }

  private async run(entry: Running): Promise<void> {
    const { job, controller } = entry;
    const { db, clock, logger, jobs } = this.params;
    const log = logger.child({ jobId: job.id, workerId: this.workerId });
    const events = new JobEventLog({ db, clock, jobId: job.id, model: job.model, logger: log });
    const emit = events.emit;
    if (job.attempts > jobs.maxAttempts) {
      const error = `The worker running this job stopped ${job.attempts - 1} times before finishing (a crash or a restart); send a follow-up message to try again`;
      await failRun({ ...this.queue, jobId: job.id, error, stage: 'worker' });
      log.warn('agent job failed: too many interrupted attempts');
      await events.flush();
      return;
    }
    const heartbeat = startHeartbeat({
      everyMs: jobs.heartbeatMs,
      renew: async () => {
        const state = await renewLease({ ...this.queue, jobId: job.id });
        return state === 'held' || state;
      },
      lost: (state) => controller.abort(state satisfies StopReason),
      failed: (err) => log.warn({ err }, 'lease heartbeat failed'),
    });
    entry.check = heartbeat.beat;
    const timer = jobDuration.startTimer();
    let outcomeLabel = 'failed';
    try {
      await emit('run_started', { attempt: job.attempts, worker: this.workerId });
      log.info({ attempt: job.attempts }, 'agent job started');
      // A run that got all the way through is recorded even if a stop arrived meanwhile: its pull request exists.
      const outcome = await this.params.runner({ job, signal: controller.signal, emit });
      await this.announce({ job, outcome }, log);
      // Every step is stored before the job leaves `active`, and the closing event with the status change itself, so a
      // client that sees the end sees the whole log.
      await events.flush();
      const result = await finishRun({ ...this.queue, jobId: job.id, handledSeq: outcome.handledSeq, result: outcome });
      outcomeLabel = result;
      log.info({ result, prLink: outcome.prLink }, 'agent job run finished');
    } catch (err) {
      // A stopped run is not a result: it resumes elsewhere or is over.
      if (!controller.signal.aborted) await this.announce({ job, error: (err as Error)?.message ?? String(err) }, log);
      await events.flush();
      outcomeLabel = controller.signal.aborted ? String(controller.signal.reason) : 'failed';
      await this.settleFailure(job, controller, err, emit, log);
    } finally {
      timer({ outcome: outcomeLabel });
      heartbeat.stop();
      await events.flush();
    }
  }

  private async announce(end: RunEnd, log: Logger): Promise<void> {
    for (const listener of this.params.onRunEnd ?? []) {
      await listener(end).catch((err: unknown) => log.warn({ err }, 'a run-end subscriber failed'));
    }
  }

  private async settleFailure(
    job: JobRecord,
    controller: AbortController,
    err: unknown,
    emit: (type: string, data?: Record<string, unknown>) => Promise<void>,
    log: Logger,
  ): Promise<void> {
    const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
    if (reason === 'shutdown') {
      await releaseLease({ ...this.queue, jobId: job.id });
      await emit('released', { reason: 'shutdown' });
      log.info('agent job released at shutdown');
      return;
    }
    if (reason === 'archived') {
      await emit('stopped', { reason: 'archived' });
      log.info('agent job stopped: archived');
      return;
    }
    if (reason === 'lost') {
      leaseLosses.inc();
      log.warn('agent job lease lost; another worker owns it now');
      return;
    }
    const failure =
      err instanceof JobFailure
        ? err
        : new JobFailure('worker', `Unexpected error: ${(err as Error)?.message ?? String(err)}`);
    await failRun({ ...this.queue, jobId: job.id, error: failure.message, stage: failure.stage });
    log.warn({ stage: failure.stage, error: failure.message }, 'agent job failed');
  }

  /**
   * Graceful shutdown: claim nothing more, stop running agents and hand their jobs back at once (another process,
   * or this one after a restart, picks them up) rather than letting them wait for a lease to expire.
   */
  async stop(): Promise<void> {
    // a claim in progress finishes first, so every job it started is stopped below
    await this.poller.stop();
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort('shutdown' satisfies StopReason);
    await Promise.allSettled(running.map((r) => r.done));
  }
}
