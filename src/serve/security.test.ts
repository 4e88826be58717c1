import { describe, expect, it } from 'vitest';
import { allowedHosts, checkRequest, createToken, tokenOf, type RequestFacts } from './security.js';

const rules = { token: 'secret-token', hosts: allowedHosts('127.0.0.1', 4000) };
const ok: RequestFacts = {
  method: 'GET',
  path: '/api/status',
  host: '127.0.0.1:4000',
  origin: undefined,
  fetchSite: undefined,
  token: 'secret-token',
  contentType: undefined,
};

describe('allowedHosts', () => {
  it('names every loopback host with the port, IPv6 in brackets', () => {
    expect([...allowedHosts('127.0.0.1', 4000)].sort()).toEqual(['127.0.0.1:4000', '[::1]:4000', 'localhost:4000']);
  });
  it('adds the bound host, and the bare host on port 80', () => {
    expect(allowedHosts('192.168.1.5', 80).has('192.168.1.5')).toBe(true);
    expect(allowedHosts('192.168.1.5', 8080).has('192.168.1.5:8080')).toBe(true);
  });
  it('bound to every interface, names the given interface addresses but not 0.0.0.0 itself', () => {
    const hosts = allowedHosts('0.0.0.0', 4000, ['10.0.0.7', 'fe80::1']);
    expect(hosts.has('10.0.0.7:4000')).toBe(true);
    expect(hosts.has('[fe80::1]:4000')).toBe(true);
    expect(hosts.has('0.0.0.0:4000')).toBe(false);
    expect(hosts.has('attacker.example:4000')).toBe(false);
  });
});

describe('checkRequest', () => {
  it('lets a same-origin API call with the token through', () => {
    expect(checkRequest(ok, rules)).toBeUndefined();
    expect(checkRequest({ ...ok, host: 'LOCALHOST:4000', origin: 'http://localhost:4000', fetchSite: 'same-origin' }, rules)).toBeUndefined();
  });
  it('refuses a Host that is not this server (DNS rebinding), a missing one too', () => {
    expect(checkRequest({ ...ok, host: 'evil.example:4000' }, rules)?.status).toBe(421);
    expect(checkRequest({ ...ok, host: '127.0.0.1:4001' }, rules)?.status).toBe(421);
    expect(checkRequest({ ...ok, host: undefined }, rules)?.code).toBe('BAD_HOST');
    // The page too, not only the API.
    expect(checkRequest({ ...ok, path: '/', host: 'evil.example:4000' }, rules)?.status).toBe(421);
  });
  it('refuses another Origin, an opaque one, https to the same host, and a cross-site fetch', () => {
    expect(checkRequest({ ...ok, origin: 'http://evil.example' }, rules)?.code).toBe('BAD_ORIGIN');
    expect(checkRequest({ ...ok, origin: 'null' }, rules)?.code).toBe('BAD_ORIGIN');
    expect(checkRequest({ ...ok, origin: 'https://127.0.0.1:4000' }, rules)?.code).toBe('BAD_ORIGIN');
    expect(checkRequest({ ...ok, origin: 'not a url' }, rules)?.code).toBe('BAD_ORIGIN');
    expect(checkRequest({ ...ok, fetchSite: 'cross-site' }, rules)?.status).toBe(403);
    expect(checkRequest({ ...ok, fetchSite: 'same-site' }, rules)?.status).toBe(403);
  });
  it('requires the token on the API, not on the page', () => {
    expect(checkRequest({ ...ok, token: undefined }, rules)?.status).toBe(401);
    expect(checkRequest({ ...ok, token: 'secret-tokeN' }, rules)?.code).toBe('BAD_TOKEN');
    expect(checkRequest({ ...ok, token: 'secret' }, rules)?.code).toBe('BAD_TOKEN');
    expect(checkRequest({ ...ok, path: '/', token: undefined }, rules)).toBeUndefined();
  });
  it('takes API writes only as JSON', () => {
    expect(checkRequest({ ...ok, method: 'POST', contentType: 'application/x-www-form-urlencoded' }, rules)?.status).toBe(415);
    expect(checkRequest({ ...ok, method: 'POST', contentType: undefined }, rules)?.status).toBe(415);
    expect(checkRequest({ ...ok, method: 'POST', contentType: 'application/json; charset=utf-8' }, rules)).toBeUndefined();
  });
});

describe('createToken', () => {
  it('is URL-safe and different every time', () => {
    const a = createToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(createToken()).not.toBe(a);
  });
});

describe('tokenOf', () => {
  it('reads a bearer token or X-Cortex-Token', () => {
    expect(tokenOf({ authorization: 'Bearer abc' })).toBe('abc');
    expect(tokenOf({ 'x-cortex-token': 'xyz' })).toBe('xyz');
    expect(tokenOf({ authorization: 'Basic abc' })).toBeUndefined();
  });
});
