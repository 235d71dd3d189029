// Stand-in for 'k6/http': synchronous requests through the harness transport (an in-process fake of
// the service), each recorded with its tags and parameters; k6's refusals of unknown parameters, of
// requests in the init context and of a responseCallback not from expectedStatuses() included. Only
// the default export: the suite and the fixtures import http from 'k6/http'.

import { context } from '../runtime.mjs';

const KNOWN_PARAMS = ['auth', 'compression', 'cookies', 'headers', 'jar', 'redirects', 'responseType', 'tags', 'timeout', 'responseCallback'];

class ExpectedStatuses {
  constructor(statuses) {
    this.statuses = statuses;
  }

  accepts(status) {
    return this.statuses.some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));
  }
}

function expectedStatuses(...statuses) {
  if (!statuses.every((s) => (typeof s === 'number' ? Number.isInteger(s) : Number.isInteger(s?.min) && Number.isInteger(s?.max)))) {
    throw new Error(`k6: expectedStatuses() takes status numbers or {min, max} objects, not ${JSON.stringify(statuses)}`);
  }
  return new ExpectedStatuses(statuses);
}

function request(method, url, body = null, params = {}) {
  const ctx = context();
  const unknown = Object.keys(params).filter((key) => !KNOWN_PARAMS.includes(key));
  if (ctx.stage === 'init' || unknown.length > 0 || !/^(\d+(\.\d+)?(ms|s|m))?$/.test(params.timeout ?? '')
    || (params.responseCallback !== undefined && !(params.responseCallback instanceof ExpectedStatuses))) {
    throw new Error(`k6: ${method} ${url} refused: in the init context, or with unknown parameters ${unknown}, a bad timeout or responseCallback`);
  }
  const answer = ctx.transport({ method, url, body, headers: { ...params.headers } });
  const expected = (params.responseCallback || expectedStatuses({ min: 200, max: 399 })).accepts(answer.status);
  ctx.requests.push({ method, url, tags: { ...params.tags }, params, status: answer.status, expected });
  return {
    url, status: answer.status, body: answer.body, headers: answer.headers, error: answer.error || '',
    timings: { duration: answer.durationMs },
    json: () => JSON.parse(answer.body),
  };
}

export default {
  request,
  expectedStatuses,
  get: (url, params) => request('GET', url, null, params),
  post: (url, body, params) => request('POST', url, body, params),
};
