import { render } from './checks/render.mjs';
import { rulesFileOf, stage, promtool } from './checks/promtool.mjs';
const s = stage(rulesFileOf(render('/usr/bin/kubectl', 'base')));
console.log(promtool('/usr/bin/promtool', ['check', 'rules', s.rulesFile]).output);
console.log(promtool('/usr/bin/promtool', ['test', 'rules', s.testsFile]).output);
