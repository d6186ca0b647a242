import { isPlainTextRequest } from '../../src/http/plain-text-request.js';

describe('plain text request', () => {
  const plain = { 'content-type': 'text/plain;charset=UTF-8', 'content-length': '120' };

  it('takes what sendBeacon and fetch send: UTF-8 text or JSON of a known length within the limit', () => {
    expect(isPlainTextRequest(plain, 8192)).toBe(true);
    expect(isPlainTextRequest({ 'content-type': 'application/json', 'content-length': '8192' }, 8192)).toBe(true);
    expect(isPlainTextRequest({ 'content-type': 'Application/JSON; charset=utf-8', 'content-length': '0' }, 8192)).toBe(
      true,
    );
    expect(isPlainTextRequest({ 'content-length': '5' }, 8192)).toBe(true);
  });

  it('leaves bodies that need the full parser: over the limit, compressed, chunked, of unknown length or another charset', () => {
    expect(isPlainTextRequest({ ...plain, 'content-length': '8193' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-length': '99999999999' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-encoding': 'gzip' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-encoding': 'identity' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ 'content-type': 'text/plain' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-type': 'text/plain; charset=latin1' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-type': 'text/plain; charset="utf-8"' }, 8192)).toBe(false);
    expect(isPlainTextRequest({ ...plain, 'content-type': 'multipart/form-data; boundary=x' }, 8192)).toBe(false);
  });
});
