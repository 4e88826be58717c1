#!/usr/bin/env node
// `npm run plugin`: regenerates the Claude Code plugin in plugin/ from templates/ (the same
// skills and hooks `cortex init --claude` writes). `--check` changes nothing and exits 1 when
// plugin/ is out of date. Needs dist/ (`npm run plugin` builds it first).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { renderClaudePlugin } = await import(new URL('../dist/setup/claude-plugin.js', import.meta.url).href);
const check = process.argv.includes('--check');
const stale = [];
for (const file of renderClaudePlugin()) {
  const path = join(root, 'plugin', file.path);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (before === file.text) continue;
  stale.push(`plugin/${file.path}`);
  if (!check) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
}
for (const f of stale) console.error(`${check ? 'out of date' : 'written'}: ${f}`);
if (check && stale.length > 0) {
  console.error('Run `npm run plugin` to regenerate plugin/ from templates/.');
  process.exit(1);
}
