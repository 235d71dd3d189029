// The live-mode transport: each request is forwarded, synchronously, to the real service through
// a child Node process (fetch-helper.mjs), so k6's synchronous http API keeps its shape.

import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HELPER = resolve(dirname(fileURLToPath(import.meta.url)), 'fetch-helper.mjs');

/** @returns {import('./context.mjs').Transport} */
export function forwardingTransport() {
  return (request) => {
    const out = execFileSync(process.execPath, [HELPER], {
      input: JSON.stringify(request),
      encoding: 'utf8',
      timeout: request.timeoutMs + 10000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(out);
  };
}
