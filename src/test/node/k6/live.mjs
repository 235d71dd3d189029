// Runs the request logic of k6/starvation.js and k6/smoke.js once against a live service, through
// the same k6 stand-ins as the offline checks, with every request forwarded to the service.
//
//   BASE_URL=http://localhost:8080 node src/test/node/k6/live.mjs      (from any folder)
//
// Both layouts run: PINNED_URL and UNPINNED_URL both pointed at BASE_URL, then BASE_URL alone;
// work requests use ms=10. Waits up to LIVE_WAIT_SECONDS [60] for /q/health/ready first.
// Exit status: 0 every answer is what the contract says; 1 some are not (listed); 2 bad usage.

import { forwardingTransport } from './harness/live-transport.mjs';
import { liveCheck } from './harness/live-check.mjs';

const baseUrl = (process.env.BASE_URL || '').replace(/\/+$/, '');
if (!/^https?:\/\/[^/\s]+$/.test(baseUrl)) {
  console.error('usage: BASE_URL=http://localhost:8080 node live.mjs   (BASE_URL: the service, without a path)');
  process.exit(2);
}
const waitSeconds = Number(process.env.LIVE_WAIT_SECONDS || '60');
if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
  console.error(`LIVE_WAIT_SECONDS must be a number of seconds, not '${process.env.LIVE_WAIT_SECONDS}'`);
  process.exit(2);
}

const transport = forwardingTransport();
const deadline = Date.now() + waitSeconds * 1000;
for (;;) {
  const ready = transport({ method: 'GET', url: `${baseUrl}/q/health/ready`, body: null, headers: {}, timeoutMs: 5000 });
  if (ready.status === 200 || Date.now() >= deadline) {
    if (ready.status !== 200) {
      console.error(`${baseUrl}/q/health/ready: ${ready.status === 0 ? ready.error : `HTTP ${ready.status}`} after ${waitSeconds} s`);
    }
    break;
  }
  await new Promise((done) => setTimeout(done, 500));
}

const { failures, requests } = await liveCheck({ baseUrl, transport, log: (line) => console.log(line) });
if (failures.length > 0) {
  console.error(`\n${failures.length} answers differ from the contract (${requests} requests):`);
  for (const failure of failures) {
    console.error(`  - ${failure}`);
  }
  process.exit(1);
}
console.log(`\nAll ${requests} requests answered as the contract says.`);
