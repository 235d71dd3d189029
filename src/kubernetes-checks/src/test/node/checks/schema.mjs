// Rendered objects against the Kubernetes OpenAPI schemas of kubernetes-models and
// @kubernetes-models/prometheus-operator, and the TestRun against testrun.schema.json (written from
// the k6-operator's api/v1alpha1/testrun_types.go), unknown fields rejected as `kubectl apply`'s
// strict field validation would. The models' validators accept fields they do not know, but they read
// exactly the properties their schema declares (maps key by key): a Proxy records every read, and a
// key of the object that was never read is not in the schema.

import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { describe } from './render.mjs';

/** @param {string} pointer e.g. /spec/containers/0/image @returns {string} .spec.containers[0].image */
const dotted = (pointer) => pointer.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');

/** A model class, or null. @param {string} modulePath e.g. kubernetes-models/apps/v1 @param {string} kind */
const loadModel = (modulePath, kind) => import(`${modulePath}/${kind}`).then((module) => module[kind] ?? null, () => null);

/**
 * A model's validator on a value: schema errors and unknown fields.
 *
 * @param {any} Model a kubernetes-models class
 * @param {string} path where the value sits, for messages
 */
export function checkWithModel(Model, value, path = '') {
  const read = new Map();
  const track = (/** @type {any} */ node, /** @type {string} */ at) => {
    if (node === null || typeof node !== 'object') return node;
    const keys = read.get(at) ?? read.set(at, new Set()).get(at);
    return new Proxy(node, {
      get(target, key, receiver) {
        const result = Reflect.get(target, key, receiver);
        if (typeof key !== 'string') return result;
        keys?.add(key);
        return track(result, `${at}/${key}`);
      },
    });
  };
  const problems = [];
  try {
    Model.prototype.validate.call(track(value, ''));
  } catch (error) {
    problems.push(`schema: ${String(/** @type {Error} */ (error).message)
      .replace(/\bdata((?:\/[^\s,]*)?)/g, (_, pointer) => `${path}${dotted(pointer)}` || '(object)')}`);
  }
  const unknown = (/** @type {any} */ node, /** @type {string} */ at) => (node === null || typeof node !== 'object' ? []
    : Object.keys(node).flatMap((key) => (read.get(at)?.has(key) ? unknown(node[key], `${at}/${key}`) : [`unknown field ${path}${dotted(`${at}/${key}`)}`])));
  return [...problems, ...unknown(value, '')];
}

let testRunValidator = null;

/** testrun.schema.json compiled; its Kubernetes-typed fields (env, resources ...) are checked by the models (`k8sModel`). */
async function compileTestRunSchema() {
  const schema = JSON.parse(readFileSync(new URL('./testrun.schema.json', import.meta.url), 'utf8'));
  const names = new Set(JSON.stringify(schema).match(/(?<="k8sModel":")[^"]+/g));
  const models = new Map();
  for (const name of names) {
    const Model = await loadModel(name.slice(0, name.lastIndexOf('/')), name.slice(name.lastIndexOf('/') + 1));
    if (!Model) throw new Error(`testrun.schema.json names a model that does not exist: ${name}`);
    models.set(name, Model);
  }
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addKeyword({
    keyword: 'k8sModel',
    schemaType: 'string',
    errors: true,
    validate: /** @type {any} */ (function k8sModel(/** @type {string} */ name, /** @type {any} */ data, /** @type {any} */ _, /** @type {any} */ context) {
      const problems = checkWithModel(models.get(name), data, dotted(String(context?.instancePath ?? '')));
      /** @type {any} */ (k8sModel).errors = problems.map((message) => ({ keyword: 'k8sModel', message, params: { model: name } }));
      return problems.length === 0;
    }),
  });
  return ajv.compile(schema);
}

/**
 * @param {any} object a rendered object
 * @returns {Promise<string[]>} problems, each prefixed with the object it is about
 */
export async function validateObject(object) {
  const where = describe(object);
  if (object?.apiVersion === 'k6.io/v1alpha1' && object?.kind === 'TestRun') {
    const validate = await (testRunValidator ??= compileTestRunSchema());
    if (validate(object)) return [];
    return (validate.errors ?? []).map((e) => (e.keyword === 'additionalProperties'
      ? `${where}: unknown field ${dotted(e.instancePath)}.${e.params.additionalProperty}`
      : e.keyword === 'k8sModel' ? `${where}: ${e.message}` : `${where}: schema: ${dotted(e.instancePath) || '(object)'} ${e.message}`));
  }
  const apiVersion = String(object?.apiVersion);
  const modulePath = apiVersion.startsWith('monitoring.coreos.com/') ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : /^(v1|[a-z0-9.]+\/v[0-9a-z]+)$/.test(apiVersion) && !apiVersion.startsWith('k6.io/') ? `kubernetes-models/${apiVersion}` : null;
  const Model = modulePath ? await loadModel(modulePath, String(object?.kind)) : null;
  if (!Model) return [`${where}: no schema known for ${apiVersion} ${object?.kind}`];
  return checkWithModel(Model, object).map((problem) => `${where}: ${problem}`);
}
