import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { parseCron, latestSlot } from './cron.js';
import type { LoadedConfig } from './config-store.js';
import { DAY_MS } from '../calendar.js';

/** How far back a missed slot is still run at start: a process down for longer runs the latest slot within it. */
const LOOK_BACK_MS = 366 * DAY_MS;

/** A schedule's slot that is due, for the slot runner (on-schedule.ts) to start once across processes. */
export interface DueSlot {
  projectId: string;
  automationId: string;
  slot: Date;
}

export interface ScheduleDeps {
  clock: Clock;
  logger: Logger;
  everyMs: number;
  configs(): Promise<LoadedConfig[]>;
  /** starts the run for a slot; a slot another process (or an earlier tick) claimed starts nothing */
  runSlot(due: DueSlot): Promise<void>;
}

/**
 * The due slot of each schedule, now: the latest slot at or before now and after the automation first loaded.
 * Only the latest counts, so a schedule missed while every process was down runs once at start, not once per slot.
 */
export function dueSlots(configs: LoadedConfig[], now: Date): DueSlot[] {
  const due: DueSlot[] = [];
  for (const config of configs) {
    for (const automation of config.automations) {
      if (automation.on.kind !== 'schedule') continue;
      const firstSeen = new Date(config.firstSeen[automation.id] ?? now.toISOString());
      const floor = new Date(Math.max(firstSeen.getTime() - 1, now.getTime() - LOOK_BACK_MS));
      // configs stored before schedules had a time zone were read in UTC
      const slot = latestSlot(parseCron(automation.on.cron, automation.on.timezone ?? 'UTC'), now, floor);
      if (slot) due.push({ projectId: config.projectId, automationId: automation.id, slot });
    }
  }
  return due;
}

/** Looks for due slots at start and every `everyMs`; the database decides which process runs each. */
export function startScheduler(deps: ScheduleDeps): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      try {
        for (const due of dueSlots(await deps.configs(), deps.clock())) await deps.runSlot(due);
      } catch (err) {
        deps.logger.error({ err }, 'scheduled automations failed to start');
      }
    });
  };
  tick();
  const timer = setInterval(tick, deps.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
