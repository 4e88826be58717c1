/**
 * The corpus (every fake of test/helpers/secrets-corpus.ts, vendor rules included) through
 * the paths issue 36 found leaking: a memory file written by hand and then injected by the
 * prompt hooks, `export --format jsonl` (a secret at the start of a body line), `import`
 * of a file from outside the repository, and a CLI error that echoes its input. "In clear"
 * is issue 36's definition (test/helpers/in-clear.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempRepo } from './helpers/repo.js';
import { FAKES, pem } from './helpers/secrets-corpus.js';
import { inClear } from './helpers/in-clear.js';

function allText(dir: string): string {
  let out = '';
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') walk(path);
      } else if (entry.isFile()) out += `\n${relative(dir, path)}\n${readFileSync(path, 'latin1')}`;
    }
  };
  walk(dir);
  return out;
}

/** The fakes found in clear in `text`, by label. */
function leaked(text: string): string[] {
  return FAKES.filter(([, , secret]) => inClear(text, secret).length > 0).map(([label]) => label);
}

describe('the corpus through the paths issue 36 found leaking', () => {
  it('leaves no secret in clear in hook injections, exports, imports, errors or any file', () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    // A memory typed by hand: never gated on its way in. Each secret starts a body line.
    const body = FAKES.map(([, wrap, secret]) => wrap(secret)).join('\n');
    repo.write('.cortex/memories/deploy-credentials-aaaaaa.md', `---\nid: deploy-credentials-aaaaaa\ntype: gotcha\nsummary: Deploy credentials for the database and the queue\n---\n${body}\n`);

    const outputs: string[] = [];
    const run = (args: string[], input?: string): void => {
      const r = repo.cortex(args, input === undefined ? {} : { input });
      // Labelled by the command's first words only: the arguments hold the secrets.
      outputs.push(`${args[0] === 'hook' ? args.slice(0, 2).join(' ') : args[0]}\n${r.stdout}\n${r.stderr}`);
    };
    run(['hook', 'user-prompt-submit'], JSON.stringify({ session_id: 'p1', cwd: repo.dir, prompt: `What are the deploy credentials for the database? ${body}` }));
    run(['hook', 'post-tool-use'], JSON.stringify({ session_id: 'p1', cwd: repo.dir, tool_name: 'Read', tool_input: { file_path: join(repo.dir, 'README.md') }, tool_response: body }));
    run(['hook', 'session-start'], JSON.stringify({ session_id: 'p2', cwd: repo.dir, source: 'startup' }));
    run(['export', '--format', 'jsonl', '--out', '-']);
    // Read commands print what the file holds: through the output gate.
    run(['show', 'deploy-credentials-aaaaaa']);
    run(['show', 'deploy-credentials-aaaaaa', '--json']);
    run(['recall', 'deploy credentials database queue', '--no-floor']);
    run(['recall', 'deploy credentials database queue', '--no-floor', '--json']);
    // Projections are rendered from memory files: a decision typed by hand too.
    repo.write('.cortex/memories/chose-the-vault-cccccc.md', `---\nid: chose-the-vault-cccccc\ntype: decision\nsummary: Chose the vault for deploy credentials\n---\n${body}\n`);
    run(['project']);
    outputs.push(`projection decisions.md\n${readFileSync(join(repo.dir, '.cortex', 'decisions.md'), 'utf8')}`);
    // An error that echoes its input: a key block passed where an option was expected.
    const key = FAKES.find(([, , , kind]) => kind === 'private-key')![2];
    run(['remember', `--${key}`]);
    // Import of a file from outside the repository.
    const outside = join(repo.home, 'notes.md');
    writeFileSync(outside, `# Notes\n\n${FAKES.map(([, wrap, secret]) => `- ${wrap(secret).replace(/\n/g, ' ')}`).join('\n')}\n`);
    run(['import', outside]);

    const printed = outputs.join('\n');
    expect(printed).toContain('[REDACTED:');
    // By command: the hook injections and the CLI error are the gate's own output paths.
    const byCommand = outputs.map((o) => [o.slice(0, o.indexOf('\n')).slice(0, 40), leaked(o)] as const).filter(([, l]) => l.length > 0);
    // Every command, no exception: export gates each memory before encoding it, the prompt
    // hook gates each body before cutting it.
    expect(byCommand, JSON.stringify(byCommand)).toEqual([]);
    // Files: every memory but the hand-written one itself (the index caches hold what that
    // file holds, by design: docs/security.md).
    expect(allText(join(repo.dir, '.memory')).length).toBeGreaterThan(0);
    const written = readdirSync(join(repo.dir, '.cortex', 'memories')).filter((f) => !f.startsWith('deploy-credentials-aaaaaa') && !f.startsWith('chose-the-vault-cccccc'));
    expect(written.length).toBeGreaterThan(0);
    const importedText = written.map((f) => `${f}\n${readFileSync(join(repo.dir, '.cortex', 'memories', f), 'utf8')}`).join('\n');
    expect(leaked(importedText)).toEqual([]);
  }, 240_000);

  it('gates a hand-written body before the prompt hook flattens and cuts it', () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    // A key block far longer than the injection's budget (1,500 chars): the cut falls
    // inside it, where its lines (flattened to one) and no footer no longer read as a key.
    const key = pem('RSA ' + 'PRIVATE KEY', 60);
    repo.write(
      '.cortex/memories/staging-deploy-key-bbbbbb.md',
      `---\nid: staging-deploy-key-bbbbbb\ntype: gotcha\nsummary: The staging deploy key for the rsync job\n---\nThe rsync job to staging logs in with this deploy key:\n${key}\n`,
    );
    const r = repo.cortex(['hook', 'user-prompt-submit'], {
      input: JSON.stringify({ session_id: 'p3', cwd: repo.dir, prompt: 'Which deploy key does the staging rsync job use?' }),
    });
    expect(r.code).toBe(0);
    // The memory was injected (else the check below would prove nothing) …
    expect(r.stdout).toContain('staging-deploy-key-bbbbbb');
    expect(r.stdout).toContain('[REDACTED:private-key]');
    // … and no window of the key material is in it.
    expect(inClear(r.stdout, key)).toEqual([]);
  }, 60_000);
});
