// @ts-check
/**
 * Visitor hashes of large batches, on a thread of their own (see HashThread in visitor-hash.ts): HMAC-SHA256 costs
 * about 2 µs a view in Node, a tenth of the ingest's main thread, and needs nothing of it but the key and the text.
 *
 * Plain JavaScript: a worker thread starts from a file, and this one starts the same way from the sources (tests,
 * tsx) and from dist/, with no compiler in between.
 *
 * Each message is `{ id, keys, keyOf, texts }` (the batch's distinct keys, the index of each text's key, the texts),
 * answered by `{ id, hashes }` in the texts' order.
 */
import { createHmac } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', ({ id, keys, keyOf, texts }) => {
  const hashes = new Array(texts.length);
  for (let i = 0; i < texts.length; i++)
    hashes[i] = createHmac('sha256', keys[keyOf[i]]).update(texts[i]).digest('base64url').slice(0, 22);
  parentPort?.postMessage({ id, hashes });
});
