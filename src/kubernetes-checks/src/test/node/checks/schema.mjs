// Validates rendered objects against the Kubernetes OpenAPI schemas shipped by kubernetes-models
// and @kubernetes-models/prometheus-operator, and the TestRun against testrun.schema.json.
//
// The models' validators accept fields they do not know (imagePullPolicyy passes), so each object
// is also checked for unknown fields: the compiled validators read exactly the properties their
// schema declares (maps such as labels are read key by key), so a Proxy records every property a
// validator reads, and a key that exists in the object but was never read is not in the schema.

import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { describe } from './render.mjs';

/**
 * Where the model of an apiVersion lives; `kind` is appended.
 *
 * @param {string} apiVersion
 * @returns {string | null}
 */
function modulePathOf(apiVersion) {
  if (apiVersion === 'monitoring.coreos.com/v1' || apiVersion === 'monitoring.coreos.com/v1alpha1') {
    return `@kubernetes-models/prometheus-operator/${apiVersion}`;
  }
  if (/^(v1|[a-z0-9.]+\/v[0-9a-z]+)$/.test(apiVersion) && !apiVersion.startsWith('k6.io/')) {
    return `kubernetes-models/${apiVersion}`;
  }
  return null;
}

/** @type {Map<string, any>} */
const models = new Map();

/**
 * @param {string} modulePath e.g. "kubernetes-models/v1"
 * @param {string} kind e.g. "EnvVar"
 * @returns {Promise<any | null>} the model class, or null when the models have none
 */
async function loadModel(modulePath, kind) {
  const key = `${modulePath}/${kind}`;
  if (!models.has(key)) {
    try {
      const module = await import(key);
      models.set(key, module[kind] ?? null);
    } catch {
      models.set(key, null);
    }
  }
  return models.get(key);
}

/**
 * Runs a model's validator on a value and lists the schema errors and the unknown fields.
 *
 * @param {any} Model a kubernetes-models class
 * @param {any} value
 * @param {string} path where the value sits, for messages
 * @returns {string[]}
 */
export function checkWithModel(Model, value, path = '') {
  /** @type {Map<string, Set<string>>} */
  const read = new Map();
  const tracked = track(value, '', read);
  const problems = [];
  try {
    Model.prototype.validate.call(tracked);
  } catch (error) {
    const message = String(/** @type {Error} */ (error).message)
      .replace(/\bdata((?:\/[^\s,]*)?)/g, (_, pointer) => `${path}${dotted(pointer)}` || '(object)');
    problems.push(`schema: ${message}`);
  }
  for (const unknown of unknownFields(value, '', read)) {
    problems.push(`unknown field ${path}${unknown}`);
  }
  return problems;
}

/**
 * @param {any} value
 * @param {string} path
 * @param {Map<string, Set<string>>} read
 * @returns {any}
 */
function track(value, path, read) {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  let seen = read.get(path);
  if (!seen) {
    seen = new Set();
    read.set(path, seen);
  }
  const keys = seen;
  return new Proxy(value, {
    get(target, property, receiver) {
      const result = Reflect.get(target, property, receiver);
      if (typeof property !== 'string') {
        return result;
      }
      keys.add(property);
      return track(result, `${path}/${property}`, read);
    },
  });
}

/**
 * @param {any} value
 * @param {string} path
 * @param {Map<string, Set<string>>} read
 * @returns {string[]}
 */
function unknownFields(value, path, read) {
  if (value === null || typeof value !== 'object') {
    return [];
  }
  const seen = read.get(path) ?? new Set();
  const unknown = [];
  for (const key of Object.keys(value)) {
    const child = `${path}/${key}`;
    if (!seen.has(key)) {
      unknown.push(dotted(child));
      continue;
    }
    unknown.push(...unknownFields(value[key], child, read));
  }
  return unknown;
}

/**
 * @param {string} pointer a JSON pointer such as /spec/containers/0/image
 * @returns {string} .spec.containers[0].image
 */
function dotted(pointer) {
  return pointer.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
}

let testRunValidator = /** @type {import('ajv').ValidateFunction | null} */ (null);

/**
 * The TestRun's schema, written from the k6-operator's API types (api/v1alpha1/testrun_types.go);
 * its Kubernetes-typed fields (env, resources, volumes ...) are checked by the models through the
 * `k8sModel` keyword.
 */
async function testRunSchema() {
  if (testRunValidator) {
    return testRunValidator;
  }
  const schema = JSON.parse(readFileSync(new URL('./testrun.schema.json', import.meta.url), 'utf8'));
  /** @type {Map<string, any>} */
  const byName = new Map();
  for (const name of collectModelNames(schema)) {
    const slash = name.lastIndexOf('/');
    const Model = await loadModel(name.slice(0, slash), name.slice(slash + 1));
    if (!Model) {
      throw new Error(`testrun.schema.json names a model that does not exist: ${name}`);
    }
    byName.set(name, Model);
  }
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addKeyword({
    keyword: 'k8sModel',
    schemaType: 'string',
    errors: true,
    /** @type {any} */
    validate: function k8sModel(/** @type {string} */ name, /** @type {any} */ data, /** @type {any} */ _schema, /** @type {any} */ context) {
      const path = dotted(String(context?.instancePath ?? ''));
      const problems = checkWithModel(byName.get(name), data, path);
      /** @type {any} */ (k8sModel).errors = problems.map((message) => ({ keyword: 'k8sModel', message, params: { model: name } }));
      return problems.length === 0;
    },
  });
  testRunValidator = ajv.compile(schema);
  return testRunValidator;
}

/**
 * @param {any} schema
 * @returns {Set<string>}
 */
function collectModelNames(schema) {
  const names = new Set();
  const visit = (/** @type {any} */ node) => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.k8sModel === 'string') names.add(node.k8sModel);
    for (const child of Object.values(node)) visit(child);
  };
  visit(schema);
  return /** @type {Set<string>} */ (names);
}

/**
 * @param {any} object a rendered object
 * @returns {Promise<string[]>} problems, each prefixed with the object it is about
 */
export async function validateObject(object) {
  const where = describe(object);
  if (object?.apiVersion === 'k6.io/v1alpha1' && object?.kind === 'TestRun') {
    const validate = await testRunSchema();
    if (validate(object)) {
      return [];
    }
    return (validate.errors ?? []).map((e) => {
      if (e.keyword === 'additionalProperties') {
        return `${where}: unknown field ${dotted(e.instancePath)}.${e.params.additionalProperty}`;
      }
      return e.keyword === 'k8sModel' ? `${where}: ${e.message}` : `${where}: schema: ${dotted(e.instancePath) || '(object)'} ${e.message}`;
    });
  }
  const modulePath = modulePathOf(String(object?.apiVersion));
  const Model = modulePath ? await loadModel(modulePath, String(object?.kind)) : null;
  if (!Model) {
    return [`${where}: no schema known for ${object?.apiVersion} ${object?.kind}`];
  }
  return checkWithModel(Model, object).map((problem) => `${where}: ${problem}`);
}
