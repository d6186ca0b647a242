import type { Sql } from '../sql.js';

/** A raw page view as the fold reads it, with its UTC day number. */
export interface FoldedEvent {
  id: number;
  projectId: string;
  ts: number;
  /** days since 1970-01-01 (UTC) */
  day: number;
  pageId: number;
  /** null for other bots */
  visitorId: number | null;
  /** KIND: 0 bot, 1 human, 2 ai */
  kind: number;
  agent: string | null;
  /** VERIFICATION for AI views, else null */
  verification: number | null;
  /** origin and path, without query; null when none */
  referrer: string | null;
}

/**
 * A table family derived from raw page views. The fold hands each rollup every chunk of new events inside the
 * transaction that advances the watermark, so a report reading a rollup never sees half a batch.
 */
export interface Rollup {
  name: string;
  /** the derived tables it owns; each has a "projectId" column (a rebuild clears a project's rows from them) */
  tables: string[];
  /**
   * adds a chunk of events (any project, any day; in id order within a chunk). Must be additive: a rebuild clears a
   * project's rows and adds its old events again while the fold goes on adding newer ones, so chunks of one project
   * may arrive out of id order
   */
  add(tx: Sql, events: FoldedEvent[]): Promise<void>;
}
