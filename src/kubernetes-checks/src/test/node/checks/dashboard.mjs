// The Grafana dashboard: well-formed for the sidecar, every panel on the grid and on the data
// source variable, and the panels the README points at exist.

/**
 * @param {any} dashboard the dashboard JSON
 * @param {string} readme the Kubernetes README, whose **bold** names are panels (or the dashboard)
 * @returns {string[]} violations
 */
export function checkDashboard(dashboard, readme) {
  const violations = [];
  const panels = dashboard.panels ?? [];
  const ids = panels.map((/** @type {any} */ p) => p.id);
  if (new Set(ids).size !== ids.length) violations.push('panel ids are not unique');
  const cells = new Map();
  for (const { gridPos: g, title } of panels) {
    if (!g || g.x < 0 || g.w <= 0 || g.x + g.w > 24) {
      violations.push(`panel "${title}" does not fit the 24-column grid`);
      continue;
    }
    for (let x = g.x; x < g.x + g.w; x++) {
      for (let y = g.y; y < g.y + g.h; y++) {
        const other = cells.get(`${x},${y}`);
        if (other) {
          violations.push(`panel "${title}" overlaps "${other}"`);
          x = g.x + g.w;
          break;
        }
        cells.set(`${x},${y}`, title);
      }
    }
  }
  const variables = (dashboard.templating?.list ?? []).map((/** @type {any} */ v) => v.name);
  for (const needed of ['datasource', 'namespace']) {
    if (!variables.includes(needed)) violations.push(`no $${needed} variable`);
  }
  for (const panel of panels.filter((/** @type {any} */ p) => p.type !== 'row')) {
    if (panel.datasource?.uid !== '${datasource}') violations.push(`panel "${panel.title}" does not use \${datasource}`);
    if (!(panel.targets?.length > 0)) violations.push(`panel "${panel.title}" has no query`);
    for (const target of panel.targets ?? []) {
      if (target.datasource?.uid !== '${datasource}') violations.push(`panel "${panel.title}" ${target.refId} does not use \${datasource}`);
      if (!/namespace="\$namespace"/.test(target.expr ?? '')) violations.push(`panel "${panel.title}" ${target.refId} ignores $namespace`);
    }
  }
  const titles = panels.map((/** @type {any} */ p) => String(p.title));
  for (const match of readme.matchAll(/\*\*([^*]+)\*\*/g)) {
    const name = match[1].replace(/\s+/g, ' ');
    if (name !== dashboard.title && !titles.some((title) => title.startsWith(name))) {
      violations.push(`the README names "${name}", which is no panel of the dashboard`);
    }
  }
  return violations;
}
