import { useEffect, useState } from 'preact/hooks';

/**
 * Runs `load` whenever `deps` change and returns `{status: 'loading' | 'error' | 'ready', data, error, reload}`.
 * While loading and after an error there is no `data`: figures of an earlier key, project or range never stay on
 * screen beside a new answer.
 */
export function useLoad(load, deps) {
  const [state, setState] = useState({ status: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    load().then(
      (data) => live && setState({ status: 'ready', data }),
      (error) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

/** Offset paging: `offset`, and `next`/`previous` that move it by `size`. */
export function useOffset(size) {
  const [offset, setOffset] = useState(0);
  return {
    offset,
    size,
    next: () => setOffset((o) => o + size),
    previous: () => setOffset((o) => Math.max(0, o - size)),
  };
}

/** Cursor paging: the cursor of the page shown, and the ones before it to go back to. */
export function useCursor() {
  const [cursors, setCursors] = useState([null]);
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    next: (cursor) => setCursors((c) => [...c, cursor]),
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    reset: () => setCursors([null]),
  };
}
