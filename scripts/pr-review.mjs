#!/usr/bin/env node
/**
 * The memory review of a pull request (issue 40; docs/ci.md): one script the GitHub Action
 * (action.yml) and a GitLab CI job both run. The core is forge-agnostic: it runs
 * `cortex diff base...head --format github`, `cortex lint --strict` and
 * `cortex project --check`, builds one markdown comment, then a thin adapter posts it (or
 * updates the comment that carries the hidden marker, so a pull request never gets a
 * second one) through the forge's REST API only, writes the job summary, and exits 1 when
 * an enabled check fails.
 *
 * Environment (the action maps its inputs onto these):
 *   CORTEX_CLI                 path of the built CLI (default: ../dist/cli.js next to this script)
 *   CORTEX_DIR                 repository to review (default: the current directory)
 *   CORTEX_FAIL_ON_SECRETS, CORTEX_FAIL_ON_BROKEN, CORTEX_FAIL_ON_STALE_PROJECTIONS,
 *   CORTEX_FAIL_ON_CONTRADICTIONS   'true' (default) or 'false'
 *   CORTEX_COMMENT             'true' (default) or 'false': post the comment
 *   GitHub: GITHUB_TOKEN, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL,
 *           GITHUB_SERVER_URL, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT
 *   GitLab (when GITLAB_CI is set): CORTEX_GITLAB_TOKEN, CI_API_V4_URL, CI_PROJECT_ID,
 *           CI_MERGE_REQUEST_IID, CI_MERGE_REQUEST_DIFF_BASE_SHA, CI_COMMIT_SHA,
 *           CI_SERVER_URL, CI_PROJECT_PATH
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MARKER = '<!-- cortex-memory-review -->';
const LIMIT = 65_536;
const env = process.env;
const flag = (name) => (env[name] ?? 'true').trim().toLowerCase() !== 'false';

function fail(message) {
  console.error(`cortex pr-review: ${message}`);
  process.exit(2);
}

// ---- forge adapters: where the pull request is, and how to post one comment ----

async function api(method, url, token, auth, body) {
  const res = await fetch(url, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'cortex-memory-review', ...auth(token) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return { json: await res.json(), link: res.headers.get('link') ?? '' };
}

function nextLink(link) {
  const m = /<([^>]+)>;\s*rel="next"/.exec(link);
  return m ? m[1] : undefined;
}

function github() {
  if (!env.GITHUB_EVENT_PATH) fail('GITHUB_EVENT_PATH is not set: run it from a pull_request workflow (docs/ci.md).');
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  const pr = event.pull_request;
  if (!pr) fail(`${env.GITHUB_EVENT_PATH} has no pull_request: trigger the workflow on pull_request (docs/ci.md).`);
  const repo = env.GITHUB_REPOSITORY ?? event.repository?.full_name;
  const apiUrl = (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
  const auth = (t) => ({ authorization: `Bearer ${t}`, 'x-github-api-version': '2022-11-28' });
  return {
    name: 'github',
    base: pr.base.sha,
    head: pr.head.sha,
    repo,
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    token: env.GITHUB_TOKEN,
    async upsert(body) {
      let url = `${apiUrl}/repos/${repo}/issues/${pr.number}/comments?per_page=100`;
      let found;
      while (url && !found) {
        const page = await api('GET', url, this.token, auth);
        found = page.json.find((c) => typeof c.body === 'string' && c.body.includes(MARKER));
        url = nextLink(page.link);
      }
      if (found) return { id: (await api('PATCH', `${apiUrl}/repos/${repo}/issues/comments/${found.id}`, this.token, auth, { body })).json.id, action: 'updated' };
      return { id: (await api('POST', `${apiUrl}/repos/${repo}/issues/${pr.number}/comments`, this.token, auth, { body })).json.id, action: 'created' };
    },
  };
}

function gitlab() {
  const apiUrl = (env.CI_API_V4_URL ?? '').replace(/\/+$/, '');
  const iid = env.CI_MERGE_REQUEST_IID;
  if (!apiUrl || !iid) fail('CI_API_V4_URL or CI_MERGE_REQUEST_IID is not set: run the job in merge-request pipelines (docs/ci.md).');
  const project = encodeURIComponent(env.CI_PROJECT_ID ?? '');
  const auth = (t) => ({ 'private-token': t });
  return {
    name: 'gitlab',
    base: env.CI_MERGE_REQUEST_DIFF_BASE_SHA,
    head: env.CI_COMMIT_SHA,
    repo: undefined, // GitLab's blob links are /-/blob/: the comment names the files without links.
    serverUrl: env.CI_SERVER_URL,
    token: env.CORTEX_GITLAB_TOKEN,
    async upsert(body) {
      let url = `${apiUrl}/projects/${project}/merge_requests/${iid}/notes?per_page=100`;
      let found;
      while (url && !found) {
        const page = await api('GET', url, this.token, auth);
        found = page.json.find((n) => typeof n.body === 'string' && n.body.includes(MARKER));
        url = nextLink(page.link);
      }
      if (found) return { id: (await api('PUT', `${apiUrl}/projects/${project}/merge_requests/${iid}/notes/${found.id}`, this.token, auth, { body })).json.id, action: 'updated' };
      return { id: (await api('POST', `${apiUrl}/projects/${project}/merge_requests/${iid}/notes`, this.token, auth, { body })).json.id, action: 'created' };
    },
  };
}

// ---- the forge-agnostic core ----

const cli = env.CORTEX_CLI ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const dir = env.CORTEX_DIR ?? process.cwd();

function cortex(args) {
  const r = spawnSync(process.execPath, [cli, '-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) fail(`cannot run ${cli}: ${r.error.message}`);
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

export async function main() {
  const forge = env.GITLAB_CI ? gitlab() : github();
  if (!forge.base || !forge.head) fail('the base or head commit of the pull request is unknown.');
  const range = `${forge.base}...${forge.head}`;
  const linkArgs = forge.repo ? ['--repo', forge.repo, '--server-url', forge.serverUrl] : [];
  const json = cortex(['diff', range, '--json']);
  if (json.status !== 0) fail(`cortex diff failed: ${json.stderr.trim() || json.stdout.trim()} (is the history fetched? use fetch-depth: 0)`);
  const diff = JSON.parse(json.stdout);
  const text = cortex(['diff', range, '--format', 'github', ...linkArgs]).stdout;
  const lint = cortex(['lint', '--strict']);
  const projections = cortex(['project', '--check']);

  const secrets = diff.flags.filter((f) => f.kind === 'secret');
  const contradictions = diff.flags.filter((f) => f.kind === 'contradiction');
  const checks = [
    { name: 'secrets', on: flag('CORTEX_FAIL_ON_SECRETS'), failed: secrets.length > 0, detail: secrets.map((f) => `\`${f.file}:${f.line ?? ''}\` ${f.message}`) },
    { name: 'memory files (`cortex lint --strict`)', on: flag('CORTEX_FAIL_ON_BROKEN'), failed: lint.status !== 0, detail: (lint.stdout + lint.stderr).split('\n').filter((l) => l.trim()).slice(0, 20).map((l) => `\`${l.replace(/`/g, "'")}\``) },
    { name: 'projections (`cortex project --check`)', on: flag('CORTEX_FAIL_ON_STALE_PROJECTIONS'), failed: projections.status !== 0, detail: projections.status !== 0 ? ['stale or missing: run `cortex project` and commit .cortex/decisions.md and plan.md'] : [] },
    { name: 'contradictions', on: flag('CORTEX_FAIL_ON_CONTRADICTIONS'), failed: contradictions.length > 0, detail: contradictions.map((f) => `\`${f.file}\` ${f.message}`) },
  ];
  const failing = checks.filter((c) => c.on && c.failed);
  const checkLines = ['', '### Checks', '', ...checks.flatMap((c) => [`- ${c.failed ? (c.on ? '❌' : '⚠️') : '✅'} ${c.name}${c.failed && !c.on ? ' (not enforced)' : ''}`, ...(c.failed ? c.detail.map((d) => `  - ${d}`) : [])])];
  let checksText = checkLines.join('\n');
  if (checksText.length > 8000) checksText = `${checksText.slice(0, 7990)}\n  - …`;
  const body = `${text.slice(0, LIMIT - checksText.length - 2).trimEnd()}\n${checksText}\n`;

  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, body);
  let posted;
  if (flag('CORTEX_COMMENT')) {
    if (!forge.token) fail(`no token to post the comment: give the action \`token\` (GitHub) or set CORTEX_GITLAB_TOKEN (GitLab).`);
    posted = await forge.upsert(body);
    console.log(`cortex pr-review: ${posted.action} comment ${posted.id} on the ${forge.name} pull request.`);
  }
  if (env.GITHUB_OUTPUT) {
    appendFileSync(env.GITHUB_OUTPUT, `comment-id=${posted?.id ?? ''}\nmemories-changed=${diff.memories.length}\nfailed=${failing.length > 0}\n`);
  }
  for (const c of failing) console.error(`cortex pr-review: failed check: ${c.name}${c.detail.length ? `\n  ${c.detail.join('\n  ')}` : ''}`);
  return failing.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => fail(err instanceof Error ? err.message : String(err)),
);
