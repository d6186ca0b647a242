import { PassThrough } from 'node:stream';
import { readTextBody } from '../../src/http/read-text-body.js';

describe('read text body', () => {
  it('joins the chunks as UTF-8, a character split across chunks included', async () => {
    const body = new PassThrough();
    const text = readTextBody(body);
    const bytes = Buffer.from('{"url":"/é"}');
    body.write(bytes.subarray(0, 10)); // ends inside the two bytes of "é"
    body.end(bytes.subarray(10));
    expect(await text).toBe('{"url":"/é"}');
  });

  it('decodes as the text body parser does: a leading byte order mark dropped, invalid bytes as U+FFFD', async () => {
    const body = new PassThrough();
    const text = readTextBody(body);
    body.end(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')]),
    );
    expect(await text).toBe('{"a":"\ufffd"}');
  });

  it('fails as an aborted request when the client goes away mid-body', async () => {
    const body = new PassThrough();
    const text = readTextBody(body);
    body.write('{"a":');
    body.emit('aborted');
    await expect(text).rejects.toMatchObject({ type: 'request.aborted', status: 400 });
  });
});
