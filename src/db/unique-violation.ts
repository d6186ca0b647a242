/**
 * Whether a write was turned away by a unique index or primary key. Prisma says so with P2002; an error that reaches
 * us without Prisma's code (a driver adapter's own, a raw query's P2010) still carries the database's text, which
 * names a unique constraint on SQLite ("UNIQUE constraint failed") and PostgreSQL ("violates unique constraint").
 * The text is matched as that phrase, not the bare word: Prisma's messages quote the calling source, where "unique"
 * (findUnique, a comment) may well appear. Callers use it where the index decides a race: one write gets in, the
 * others read what it wrote.
 */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 'P2002' || /unique constraint/i.test(String((err as Error)?.message));
}
