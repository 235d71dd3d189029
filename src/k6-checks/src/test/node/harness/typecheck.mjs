// Type-checks k6 scripts with the TypeScript compiler API and the project's tsconfig.json
// (checkJs, strict, @types/k6), so a test can check the suite, or one fixture, and read the errors.

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TSCONFIG = resolve(dirname(fileURLToPath(import.meta.url)), '../tsconfig.json');

/**
 * @param {typeof import('typescript')} ts
 */
export function readConfig(ts) {
  const parsed = ts.getParsedCommandLineOfConfigFile(TSCONFIG, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) {
    throw new Error(`cannot read ${TSCONFIG}`);
  }
  return parsed;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {string[]} [files] scripts to check instead of the tsconfig's include (ambient .d.ts kept)
 * @returns {{ file: string, line: number, code: number, message: string }[]}
 */
export function typecheck(ts, files) {
  const config = readConfig(ts);
  const rootNames = files
    ? [...files.map((f) => resolve(f)), ...config.fileNames.filter((f) => f.endsWith('.d.ts'))]
    : config.fileNames;
  const program = ts.createProgram({ rootNames, options: config.options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file ? d.file.fileName : '',
      line: position ? position.line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}
