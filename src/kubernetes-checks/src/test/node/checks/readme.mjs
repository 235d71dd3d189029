// The shell commands of a README: every line of its ```sh blocks, continuation lines joined, a
// trailing `# comment` dropped, `a && b` split into two commands.

import { readFileSync } from 'node:fs';

/**
 * @param {string} file
 * @returns {{ line: number, command: string }[]}
 */
export function shellCommands(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const commands = [];
  let inside = false;
  let pending = '';
  let pendingLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)\s*$/.exec(lines[i]);
    if (fence) {
      inside = !inside && (fence[1] === 'sh' || fence[1] === 'bash' || fence[1] === 'shell');
      continue;
    }
    if (!inside) continue;
    const text = withoutComment(lines[i]);
    if (!pending) pendingLine = i + 1;
    if (text.endsWith('\\')) {
      pending += `${text.slice(0, -1).trim()} `;
      continue;
    }
    const whole = `${pending}${text}`.trim();
    pending = '';
    if (!whole) continue;
    for (const part of splitTopLevel(whole, '&&')) commands.push({ line: pendingLine, command: part });
  }
  return commands;
}

/** @param {string} line */
function withoutComment(line) {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return line.slice(0, i).trimEnd();
    }
  }
  return line.trimEnd();
}

/**
 * @param {string} command
 * @param {string} separator
 */
export function splitTopLevel(command, separator) {
  const parts = [];
  let quote = '';
  let depth = 0;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
    } else if (depth === 0 && command.startsWith(separator, i)) {
      parts.push(command.slice(start, i).trim());
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(command.slice(start).trim());
  return parts.filter(Boolean);
}

/**
 * Shell words, quotes removed ('...' and "..." as the shell reads them, no expansion).
 *
 * @param {string} command
 * @returns {string[]}
 */
export function words(command) {
  const result = [];
  let word = '';
  let quote = '';
  let any = false;
  for (const c of command) {
    if (quote) {
      if (c === quote) quote = '';
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (/\s/.test(c)) {
      if (word || any) result.push(word);
      word = '';
      any = false;
    } else {
      word += c;
    }
  }
  if (word || any) result.push(word);
  return result;
}
