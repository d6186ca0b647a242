import type { IncomingMessage } from 'node:http';
import { rawClientIp } from '../../src/analytics/client-ip.js';

const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('client address of a raw request', () => {
  it('reads the trusted proxy header from the raw headers, any case, right-most entry first', () => {
    const req = request('::ffff:10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.9' });
    expect(rawClientIp(req, undefined)).toBe('10.0.0.1');
    expect(rawClientIp(req, 'X-Forwarded-For')).toBe('198.51.100.9');
    expect(rawClientIp(request('10.0.0.1'), 'x-forwarded-for')).toBeUndefined();
    expect(rawClientIp(request('10.0.0.1', { 'cf-connecting-ip': '2001:DB8::1' }), 'CF-Connecting-IP')).toBe('2001:db8::1');
  });
});
