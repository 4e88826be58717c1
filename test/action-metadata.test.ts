/**
 * action.yml checked against the documented required keys of GitHub's action metadata
 * (https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions;
 * the JSON schema at json.schemastore.org/github-action.json is not published on npm, so the
 * checks are written here), and against the script it runs: every input reaches it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './helpers/repo.js';

interface Step { uses?: string; run?: string; shell?: string; env?: Record<string, string>; id?: string; with?: Record<string, unknown> }
const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as {
  name: unknown; description: unknown; branding?: { icon?: string; color?: string };
  inputs: Record<string, { description: unknown; required?: unknown; default?: unknown }>;
  outputs: Record<string, { description: unknown; value: unknown }>;
  runs: { using: string; steps: Step[] };
};
const script = readFileSync(join(REPO_ROOT, 'scripts', 'pr-review.mjs'), 'utf8');

describe('action.yml', () => {
  it('has the required top-level keys and a composite runs section', () => {
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    expect(action.runs.using).toBe('composite');
    expect(Array.isArray(action.runs.steps) && action.runs.steps.length > 0).toBe(true);
    expect(['white', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']).toContain(action.branding?.color);
  });

  it('declares inputs with a description, a boolean required and string defaults; outputs with a value (composite)', () => {
    for (const [id, input] of Object.entries(action.inputs)) {
      expect(id).toMatch(/^[_a-zA-Z][a-zA-Z0-9_-]*$/);
      expect(typeof input.description, id).toBe('string');
      expect(typeof input.required, id).toBe('boolean');
      if (input.default !== undefined) expect(typeof input.default, id).toBe('string');
    }
    for (const [id, output] of Object.entries(action.outputs)) {
      expect(typeof output.description, id).toBe('string');
      expect(output.value, id).toMatch(/^\$\{\{ steps\.review\.outputs\.[a-z-]+ \}\}$/);
      expect(script).toContain(`${id}=`);
    }
  });

  it('gives every run step a shell, and passes every input on to the script under a name it reads', () => {
    for (const step of action.runs.steps) if (step.run !== undefined) expect(['bash', 'sh', 'pwsh', 'python', 'cmd', 'powershell']).toContain(step.shell);
    const env = Object.assign({}, ...action.runs.steps.map((s) => s.env ?? {})) as Record<string, string>;
    const used = JSON.stringify(action.runs.steps);
    for (const id of Object.keys(action.inputs)) expect(used, id).toContain(`inputs.${id}`);
    for (const name of Object.keys(env)) expect(script, name).toContain(name);
  });
});
