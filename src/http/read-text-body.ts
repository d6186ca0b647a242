import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** The error Express's body parser reports for a request whose client went away mid-body (see error-handler.ts). */
function aborted(): Error {
  return Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400, expose: true });
}

/**
 * A request body read whole as UTF-8 text, decoded as Express's text parser decodes it: invalid bytes become U+FFFD
 * and a leading byte order mark is dropped. For bodies already known to be small (see isPlainTextRequest).
 */
export function readTextBody(req: Readable): Promise<string> {
  // The listeners stay: nothing is emitted after 'end' or a failure but a settled promise ignores. Inline and
  // unnamed, since this runs per tracker request and tsx names every function bound to a const, at a cost.
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += decoder.write(chunk);
    });
    req.on('end', () => {
      text += decoder.end();
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    req.on('aborted', () => reject(aborted()));
    req.on('error', () => reject(aborted()));
  });
}
