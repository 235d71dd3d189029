// Module hooks: 'k6' and 'k6/*' resolve to the stand-ins (standins/k6.mjs, standins/k6-http.mjs...); a k6
// script and its relative imports share the script's generation (?k6gen=N), so each load of a script
// gets fresh module instances (its metrics, its layout) built from its own __ENV.

export async function resolve(specifier, context, next) {
  if (/^k6(\/(http|metrics|execution))?$/.test(specifier)) {
    return { url: new URL(`./standins/${specifier.replace('/', '-')}.mjs`, import.meta.url).href, shortCircuit: true };
  }
  const parent = context.parentURL;
  if (parent !== undefined && new URL(parent).searchParams.has('k6gen') && specifier.startsWith('.')) {
    const url = new URL(specifier, parent);
    url.search = new URL(parent).search;
    return { url: url.href, shortCircuit: true };
  }
  return next(specifier, context);
}
