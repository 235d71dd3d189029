// Fixtures: fixtures/lab-good.yaml passes every check, and each broken fixture is that file (or a
// render of the manifests) with one defect: a JSON patch (RFC 6902) of one of its objects
// (fixtures/broken/*.yaml), applied by fast-json-patch, which fails on a `test` that no longer holds
// or a path that does not resolve rather than test nothing.

import { readFileSync } from 'node:fs';
import jsonpatch from 'fast-json-patch';
import { parse } from 'yaml';
import { parseObjects } from './render.mjs';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/** @param {any} document @param {any[]} operations @returns {any} a patched copy */
export function applyPatch(document, operations) {
  return jsonpatch.applyPatch(structuredClone(document), operations, true).newDocument;
}

/** @param {string} name a file under fixtures/ @returns {any[]} */
export function fixture(name) {
  return parseObjects(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

/**
 * `objects` (lab-good.yaml unless given) with the patch of broken/<name>.yaml applied to its target; with
 * `json: <key>` to the JSON document a ConfigMap holds under that key (the dashboard).
 */
export function brokenRender(name, objects = fixture('lab-good.yaml')) {
  const { target, json, patch } = parse(readFileSync(new URL(`broken/${name}.yaml`, FIXTURES), 'utf8'));
  const copy = structuredClone(objects);
  const index = copy.findIndex((o) => o.kind === target.kind && o.metadata?.name === target.name);
  if (index < 0) throw new Error(`broken/${name}.yaml: no ${target.kind} ${target.name} to break`);
  if (json) copy[index].data[json] = JSON.stringify(applyPatch(JSON.parse(copy[index].data[json]), patch), null, 2);
  else copy[index] = applyPatch(copy[index], patch);
  return copy;
}
