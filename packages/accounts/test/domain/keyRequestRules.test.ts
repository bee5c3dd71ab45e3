import { describe, expect, it } from 'vitest';
import { parseConfig } from '@quotes/service-base';
import { clientNetworkOf } from '../../src/domain/clientNetwork.js';
import { waitingReasons } from '../../src/domain/keyRequestDecision.js';

describe('the network of a client address', () => {
  it('is the IPv4 /24 and the IPv6 /56; a mapped IPv4 address counts as IPv4', () => {
    expect(clientNetworkOf('203.0.113.77')).toEqual({
      address: '203.0.113.77',
      network: '203.0.113.0/24',
      site: '203.0.113.0/24',
    });
    expect(clientNetworkOf('2001:db8:abcd:12ff:1::9')).toEqual({
      address: '2001:db8:abcd:12ff:1::9',
      network: '2001:db8:abcd:1200::/56',
      site: '2001:db8:abcd::/48',
    });
    expect(clientNetworkOf('::ffff:198.51.100.4')).toEqual({
      address: '198.51.100.4',
      network: '198.51.100.0/24',
      site: '198.51.100.0/24',
    });
  });
});

describe('the reasons a confirmed request waits for the operator', () => {
  const trial = { plan: 'trial', selfService: true, disposableDomain: null, networkTrial: null };

  it('are none for a self-service plan whose checks pass', () => {
    expect(waitingReasons(trial)).toEqual([]);
  });

  it('name each failed check, in words', () => {
    expect(
      waitingReasons({
        plan: 'starter',
        selfService: false,
        disposableDomain: 'mailinator.com',
        networkTrial: { network: '203.0.113.0/24', requestId: 'r_1', grantedAt: '2026-11-20T10:00:00Z' },
      }),
    ).toEqual([
      'the starter plan is granted by the operator',
      'mailinator.com is a disposable-mail domain',
      'one trial per network: 203.0.113.0/24 had a trial granted 2026-11-20T10:00:00Z (request r_1) within 30 days',
    ]);
  });
});

describe('the key-request settings', () => {
  it('read TRUST_PROXY as addresses and CIDRs, and refuse anything else naming the variable', () => {
    expect(parseConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(parseConfig({}).TRUST_PROXY).toBeUndefined();
    expect(() => parseConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
    expect(() => parseConfig({ KEY_REQUESTS_PER_HOUR: '0' })).toThrow(/KEY_REQUESTS_PER_HOUR/);
    expect(parseConfig({}).KEY_REQUESTS_PER_NETWORK_HOUR).toBe(10);
    expect(() => parseConfig({ KEY_REQUESTS_PER_NETWORK_HOUR: 'many' })).toThrow(/KEY_REQUESTS_PER_NETWORK_HOUR/);
  });
});
