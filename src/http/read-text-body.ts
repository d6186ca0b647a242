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
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    const onData = (chunk: Buffer) => {
      text += decoder.write(chunk);
    };
    const onEnd = () => {
      cleanup();
      text += decoder.end();
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onAbort = () => {
      cleanup();
      reject(aborted());
    };
    const cleanup = () => {
      req.off('data', onData).off('end', onEnd).off('aborted', onAbort).off('error', onAbort);
    };
    req.on('data', onData).on('end', onEnd).on('aborted', onAbort).on('error', onAbort);
  });
}
