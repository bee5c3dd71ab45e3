import { createDocsFront } from '@quotes/docs';
import { startMock } from './startMock.js';

// `npm run mock`: on MOCK_HOST:MOCK_PORT (default 127.0.0.1:4010) the same API reference page as
// the server (/docs, /openapi.yaml, /openapi.json), and everything else streamed to Prism,
// which listens on a private port behind it.
const host = process.env.MOCK_HOST || '127.0.0.1';
const portText = process.env.MOCK_PORT || '4010';
if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
  console.error(`MOCK_PORT must be a port number (0-65535), got "${portText}"`);
  process.exit(2);
}

try {
  const prism = await startMock({ host: '127.0.0.1', port: 0 });
  const front = await createDocsFront({ upstream: prism.url, port: Number(portText), host }).catch(
    async (error: unknown) => {
      await prism.stop();
      throw error;
    },
  );
  console.log(`Mock of the Quote Retrieval Service on ${front.url} (reference page: ${front.url}/docs)`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await front.close();
      await prism.stop();
      process.exit(0);
    });
  }
} catch (error) {
  console.error(`mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
