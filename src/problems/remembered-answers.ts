/**
 * The last answers derived from a project's stored signals, each kept with the signals' stamp read before it was
 * derived (ProblemSignals.stamp): asked again under the same stamp, nothing it was derived from has changed, so it is
 * answered again; under another, derived afresh. The stamp is read before deriving, so a write that lands while an
 * answer is derived only makes the next read derive it again. At most `size` answers, the least recently used go.
 * Answers are shared between callers: they are read, never changed.
 */
export function rememberedAnswers(size: number) {
  const kept = new Map<string, { stamp: string; answer: Promise<unknown> }>();
  return function remembered<T>(key: string, stamp: string, derive: () => Promise<T>): Promise<T> {
    const found = kept.get(key);
    kept.delete(key);
    if (found?.stamp === stamp) {
      kept.set(key, found);
      return found.answer as Promise<T>;
    }
    const entry = { stamp, answer: derive() as Promise<unknown> };
    kept.set(key, entry);
    // a failed derivation is not an answer: the next read tries again
    entry.answer.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    if (kept.size > size) kept.delete(kept.keys().next().value!);
    return entry.answer as Promise<T>;
  };
}
