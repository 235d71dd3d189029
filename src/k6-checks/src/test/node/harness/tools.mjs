// A check that needs a tool which is missing fails under CI=true and, elsewhere, says loudly that
// it was skipped: it never passes silently.

/**
 * @template T
 * @param {import('node:test').TestContext} t
 * @param {string} tool what is missing, and how to get it
 * @param {() => Promise<T>} load
 * @returns {Promise<T | null>}
 */
export async function requireTool(t, tool, load) {
  try {
    return await load();
  } catch (error) {
    const reason = `${tool}: missing (${error instanceof Error ? error.message.split("\n")[0] : error})`;
    if (process.env.CI === 'true') {
      throw new Error(`${reason}; CI=true, so this check fails instead of skipping`);
    }
    console.warn(`\n*** SKIPPED: ${reason}. Run npm ci in src/k6-checks/src/test/node. ***\n`);
    t.skip(`SKIPPED: ${reason}`);
    return null;
  }
}
