// The public API, read with the key the user pasted. Keys live in sessionStorage only (gone when the tab closes) and
// go out as a bearer header, never in a URL; a write key, asked for by the first action that needs one, beside it.

const stored = (name) => sessionStorage.getItem(`scribe.${name}`) || '';

export const session = {
  project: () => stored('project'),
  key: () => stored('key'),
  writeKey: () => stored('writeKey'),
  open(project, key) {
    if (project !== stored('project')) sessionStorage.removeItem('scribe.writeKey');
    sessionStorage.setItem('scribe.project', project);
    sessionStorage.setItem('scribe.key', key);
  },
  setWriteKey: (key) => sessionStorage.setItem('scribe.writeKey', key),
  forget() {
    sessionStorage.removeItem('scribe.key');
    sessionStorage.removeItem('scribe.writeKey');
  },
};

/** An answer other than 2xx: the API's own sentence and its details, kept apart so both can be shown. */
export class ApiError extends Error {
  constructor(status, message, details) {
    super(message);
    this.status = status;
    this.details = details;
  }
  /** the 403 a read key gets for a write: the one refusal another key fixes */
  get needsWriteKey() {
    return this.status === 403 && /write key/i.test(this.message);
  }
}

/** `path` with `{project}` filled in; `write` sends the write key when one was given. */
export async function request(path, options = {}) {
  const { method = 'GET', body, write = false, accept = 'application/json', signal } = options;
  const key = write ? session.writeKey() || session.key() : session.key();
  let res;
  try {
    res = await fetch(path.replace('{project}', encodeURIComponent(session.project())), {
      method,
      signal,
      headers: {
        authorization: `Bearer ${key}`,
        accept,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'The server did not answer (is Scribe running and reachable?)', []);
  }
  if (!res.ok) {
    let answer = {};
    try {
      answer = await res.json();
    } catch (_) {}
    const details = Array.isArray(answer.details) ? answer.details.map((d) => d.message ?? String(d)) : [];
    throw new ApiError(res.status, answer.error || `HTTP ${res.status}`, details);
  }
  return res;
}

export const getJson = async (path, options) => (await request(path, options)).json();

/** `?a=1&b=2` of the defined entries only. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Saves a CSV answer as a file: fetched with the key in a header, since a plain link cannot carry one. */
export async function downloadCsv(path, filename) {
  const blob = await (await request(path, { accept: 'text/csv' })).blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
