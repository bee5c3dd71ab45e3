import { expect } from 'vitest';

/** The scrape as Prometheus reads it: each sample line's series (name and labels) and value. */
export async function scrape(url: string): Promise<{ contentType: string | null; samples: Map<string, number> }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return { contentType: response.headers.get('content-type'), samples };
}
