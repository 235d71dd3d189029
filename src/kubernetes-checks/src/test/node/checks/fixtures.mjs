// Fixtures: fixtures/lab-good.yaml passes every check, and each broken fixture is that file (or a
// render of the manifests) with one defect, written as a JSON patch (RFC 6902) of one of its objects
// (fixtures/broken/*.yaml).

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, parseObjects } from './render.mjs';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/**
 * @param {string} name a file under fixtures/
 * @returns {any[]}
 */
export function fixture(name) {
  return parseObjects(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

/**
 * lab-good.yaml with the patch of fixtures/broken/<name>.yaml applied.
 *
 * @param {string} name
 * @returns {any[]}
 */
export function brokenFixture(name) {
  return brokenRender(name, fixture('lab-good.yaml'), 'lab-good.yaml');
}

/**
 * `objects` (a render) with the one-defect patch of fixtures/broken/<name>.yaml applied to its
 * target; with `json: <key>` the patch applies to the JSON document a ConfigMap holds under that key
 * (the dashboard).
 *
 * @param {string} name
 * @param {any[]} objects
 * @param {string} [origin] what the objects are, for the error when the target is missing
 * @returns {any[]}
 */
export function brokenRender(name, objects, origin = 'the render') {
  const { target, json, patch } = parse(readFileSync(new URL(`broken/${name}.yaml`, FIXTURES), 'utf8'));
  const copy = structuredClone(objects);
  const index = copy.findIndex((o) => o.kind === target.kind && o.metadata?.name === target.name);
  if (index < 0) {
    throw new Error(`broken/${name}.yaml: ${origin} has no ${target.kind} ${target.name}`);
  }
  if (json) {
    const document = JSON.parse(String(copy[index].data?.[json] ?? 'null'));
    copy[index].data[json] = JSON.stringify(applyPatch(document, patch), null, 2);
  } else {
    copy[index] = applyPatch(copy[index], patch);
  }
  return copy;
}

/**
 * RFC 6902 on a copy of `document`; throws on a path that does not resolve or a failed `test`.
 *
 * @param {any} document
 * @param {{ op: string, path: string, from?: string, value?: any }[]} operations
 * @returns {any}
 */
export function applyPatch(document, operations) {
  let result = structuredClone(document);
  for (const operation of operations) {
    const at = `${operation.op} ${operation.path} on ${describe(document)}`;
    switch (operation.op) {
      case 'add': result = put(result, operation.path, structuredClone(operation.value), 'add', at); break;
      case 'replace': result = put(result, operation.path, structuredClone(operation.value), 'replace', at); break;
      case 'remove': take(result, operation.path, at); break;
      case 'move': result = put(result, operation.path, take(result, String(operation.from), at), 'add', at); break;
      case 'copy': result = put(result, operation.path, structuredClone(get(result, String(operation.from), at)), 'add', at); break;
      case 'test':
        if (JSON.stringify(get(result, operation.path, at)) !== JSON.stringify(operation.value)) {
          throw new Error(`${at}: test failed, the fixture no longer holds ${JSON.stringify(operation.value)}`);
        }
        break;
      default: throw new Error(`${at}: unknown op`);
    }
  }
  return result;
}

/** @param {string} pointer */
function tokens(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** @param {any} doc @param {string} pointer @param {string} at */
function parentOf(doc, pointer, at) {
  const path = tokens(pointer);
  const last = path.pop();
  let node = doc;
  for (const token of path) {
    if (node === null || typeof node !== 'object' || !(token in node)) throw new Error(`${at}: ${pointer} does not resolve`);
    node = node[token];
  }
  if (last === undefined || node === null || typeof node !== 'object') throw new Error(`${at}: ${pointer} does not resolve`);
  return { node, last };
}

/** @param {any} doc @param {string} pointer @param {string} at */
function get(doc, pointer, at) {
  const { node, last } = parentOf(doc, pointer, at);
  if (!(last in node)) throw new Error(`${at}: ${pointer} does not resolve`);
  return node[last];
}

/** @param {any} doc @param {string} pointer @param {any} value @param {'add' | 'replace'} mode @param {string} at */
function put(doc, pointer, value, mode, at) {
  const { node, last } = parentOf(doc, pointer, at);
  if (Array.isArray(node)) {
    const index = last === '-' ? node.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > node.length || (mode === 'replace' && index >= node.length)) {
      throw new Error(`${at}: index ${last} out of range`);
    }
    node.splice(index, mode === 'replace' ? 1 : 0, value);
  } else {
    if (mode === 'replace' && !(last in node)) throw new Error(`${at}: ${pointer} does not resolve`);
    node[last] = value;
  }
  return doc;
}

/** @param {any} doc @param {string} pointer @param {string} at */
function take(doc, pointer, at) {
  const { node, last } = parentOf(doc, pointer, at);
  if (!(last in node)) throw new Error(`${at}: ${pointer} does not resolve`);
  const value = node[last];
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
  return value;
}
