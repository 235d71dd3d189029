// Performs one HTTP request for the synchronous k6/http stand-in in live mode: reads the request
// as JSON on stdin, writes the answer as JSON on stdout. A child process per request keeps the
// caller synchronous, as k6's http API is.

const chunks = [];
for await (const chunk of process.stdin) {
  chunks.push(chunk);
}
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const started = performance.now();
let answer;
try {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body === null ? undefined : request.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(request.timeoutMs),
  });
  const body = await response.text();
  answer = { status: response.status, headers: Object.fromEntries(response.headers), body,
    durationMs: performance.now() - started };
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  answer = { status: 0, headers: {}, body: '', durationMs: performance.now() - started,
    error: `${error instanceof Error ? error.message : String(error)}${cause}`, errorCode: 1000 };
}
process.stdout.write(JSON.stringify(answer));
