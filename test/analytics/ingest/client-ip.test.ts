import type { IncomingMessage } from 'node:http';
import { clientIp, normalizeIp } from '../../../src/analytics/ingest/client-ip.js';

/** a request as Node hands it over: header names lower-cased */
const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('client address', () => {
  it('uses the socket unless a trusted proxy header is configured', () => {
    const req = request('::ffff:10.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
    expect(clientIp(req, undefined)).toBe('10.0.0.1');
    expect(clientIp(req, 'x-forwarded-for')).toBe('198.51.100.1');
  });

  it('takes the right-most forwarded address: the one the trusted proxy added', () => {
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.9' }), 'x-forwarded-for')).toBe(
      '198.51.100.9',
    );
    expect(clientIp(request('10.0.0.1', {}), 'x-forwarded-for')).toBeUndefined();
    expect(clientIp(request('10.0.0.1', { 'cf-connecting-ip': '2001:DB8::1' }), 'cf-connecting-ip')).toBe(
      '2001:db8::1',
    );
  });

  it('finds the trusted proxy header whatever the case it is configured in', () => {
    const req = request('::ffff:10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.9' });
    expect(clientIp(req, 'X-Forwarded-For')).toBe('198.51.100.9');
    expect(clientIp(request('10.0.0.1'), 'X-Forwarded-For')).toBeUndefined();
    expect(clientIp(request('10.0.0.1', { 'cf-connecting-ip': '2001:DB8::1' }), 'CF-Connecting-IP')).toBe(
      '2001:db8::1',
    );
  });

  it('normalises addresses and refuses non-addresses', () => {
    expect(normalizeIp('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(normalizeIp('203.0.113.4:8080')).toBe('203.0.113.4');
    expect(normalizeIp('unknown')).toBeUndefined();
    expect(normalizeIp('999.1.1.1')).toBeUndefined();
  });
});
