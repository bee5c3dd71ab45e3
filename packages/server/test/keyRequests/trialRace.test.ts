import { describe, expect, it } from 'vitest';
import { post, requestBody } from '../../testing/keyRequestClient.js';
import { confirmationTokens, pressConfirm, keyRequestService } from './confirmationLinks.js';

// Trials asked for from several networks by people who also ask from other networks, every
// link confirmed at the same moment over real HTTP: one trial per network and one per person
// must hold however the confirmations interleave.
const service = keyRequestService();

const networks = 4;
const perNetwork = 3;
const rounds = 4;

describe('trials confirmed at the same moment', { timeout: 120_000 }, () => {
  it('grant one per network and one per person, every other request waiting with its reason', async () => {
    for (let round = 0; round < rounds; round++) {
      const asked: { email: string; network: string }[] = [];
      for (let network = 0; network < networks; network++)
        for (let index = 0; index < perNetwork; index++) {
          // Person (network + index) % 5: most people ask from two or three of the networks.
          const email = `race${round}-p${(network + index) % 5}@example.com`;
          const prefix = `127.${100 + round * networks + network}.0`;
          const answer = await post(
            `${service.server.url}/keys/requests`,
            requestBody({ email, name: `Person ${index}`, application: `Race ${round} app ${network}.${index}` }),
            { localAddress: `${prefix}.${index + 1}` },
          );
          expect(answer.status, answer.text).toBe(202);
          asked.push({ email, network: `${prefix}.0/24` });
        }
      const tokens = await confirmationTokens(
        service.inbox,
        (address) => address.startsWith(`race${round}-`),
        asked.length,
      );
      const answers = await Promise.all(tokens.map((token) => pressConfirm(service.server.url, token)));
      expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 200));

      const rows = await service.database.db
        .selectFrom('key_requests')
        .select(['email', 'client_network', 'status', 'reasons'])
        .where('email', 'like', `race${round}-%`)
        .execute();
      expect(rows).toHaveLength(asked.length);
      const granted = rows.filter((row) => row.status === 'approved');
      const countBy = (key: (row: (typeof rows)[number]) => string) => {
        const counts = new Map<string, number>();
        for (const row of granted) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
        return [...counts.values()];
      };
      expect(Math.max(...countBy((row) => row.client_network)), `round ${round}: a network got two trials`).toBe(1);
      expect(Math.max(...countBy((row) => row.email)), `round ${round}: a person got two trials`).toBe(1);
      // Nothing half decided: each request is granted or waits for the operator, saying why.
      for (const row of rows) {
        expect(['approved', 'pending']).toContain(row.status);
        if (row.status === 'pending') expect(row.reasons.join()).toMatch(/one trial per (network|person)/);
      }
      // The locks queue confirmations rather than refusing them: a request waits only because its
      // network or its person was granted a trial, so the grants are a maximal matching (3 or 4
      // of these 4 networks and 5 people, by the order the confirmations took).
      const grantedNetworks = new Set(granted.map((row) => row.client_network));
      const grantedPeople = new Set(granted.map((row) => row.email));
      for (const row of rows.filter((row) => row.status === 'pending'))
        expect(grantedNetworks.has(row.client_network) || grantedPeople.has(row.email)).toBe(true);
      expect(granted.length).toBeGreaterThanOrEqual(3);
      expect(granted.length).toBeLessThanOrEqual(networks);
      const keys = await service.database.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('email', 'like', `race${round}-%`)
        .executeTakeFirstOrThrow();
      expect(Number(keys.n)).toBe(granted.length);
    }
  });
});
