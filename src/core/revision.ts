/**
 * Git's revision syntax, parsed without git: what `cortex diff`, `recall --branch` and the
 * staleness checks resolve in-process (isomorphic-git) when the `git` command is not
 * installed. With git installed, `git rev-parse` resolves revisions and this parser only
 * splits ranges.
 *
 * Understood: a name (`HEAD`, `@`, a branch, tag, remote branch or commit id), an upstream
 * (`@{u}`, `@{upstream}`, `main@{u}`), then any number of `~`, `~<n>`, `^`, `^<n>`, `^0`,
 * `^{}` and `^{commit}`. Ranges: `A..B` and `A...B` (either side may be empty: HEAD).
 */

/** One step from a commit: `~n` (n first parents back) or `^n` (the n-th parent; `^0` the commit itself). */
export type RevisionStep = { op: '~'; n: number } | { op: '^'; n: number };

export interface ParsedRevision {
  /** The name to look up: `HEAD`, a ref name or a (short) commit id. `@` is read as HEAD. */
  base: string;
  /** `@{u}` / `@{upstream}` after the base: its upstream branch. */
  upstream: boolean;
  steps: RevisionStep[];
}

export type ParseRevisionResult = { ok: true; revision: ParsedRevision } | { ok: false; reason: string };

const NAME = /^[^\s~^:?*[\\\x00-\x1f\x7f]+$/;

/**
 * Parses one revision (not a range). Never throws: what is not understood comes back as a
 * reason naming the part.
 *
 * @example
 * parseRevision('main~2^2') // { ok: true, revision: { base: 'main', upstream: false, steps: [{ op: '~', n: 2 }, { op: '^', n: 2 }] } }
 * parseRevision('@{u}') // { ok: true, revision: { base: 'HEAD', upstream: true, steps: [] } }
 * parseRevision('main@{yesterday}').ok // false
 */
export function parseRevision(input: string): ParseRevisionResult {
  const rev = input.trim();
  if (rev === '') return { ok: false, reason: 'the revision is empty' };
  if (rev.startsWith('-')) return { ok: false, reason: `"${rev}" starts with "-", which git reads as an option` };
  if (rev.includes('..')) return { ok: false, reason: `"${rev}" is a range, not one revision` };
  const at = /^(.*?)@\{([^}]*)\}(.*)$/.exec(rev);
  let base: string;
  let rest: string;
  let upstream = false;
  if (at) {
    const what = at[2]!.toLowerCase();
    if (what !== 'u' && what !== 'upstream') {
      return { ok: false, reason: `"@{${at[2]}}" (reflog and date lookups) needs the git command; only @{u} and @{upstream} are understood without it` };
    }
    base = at[1] === '' || at[1] === '@' ? 'HEAD' : at[1]!;
    upstream = true;
    rest = at[3]!;
  } else {
    const cut = rev.search(/[~^]/);
    base = cut < 0 ? rev : rev.slice(0, cut);
    rest = cut < 0 ? '' : rev.slice(cut);
    if (base === '@') base = 'HEAD';
    if (base === '') return { ok: false, reason: `"${rev}" has no name before "${rest[0]}"` };
  }
  if (!NAME.test(base) || base.endsWith('.') || base.endsWith('/') || base.includes('@{')) {
    return { ok: false, reason: `"${base}" is not a valid branch, tag or commit name` };
  }
  const steps: RevisionStep[] = [];
  let i = 0;
  while (i < rest.length) {
    const m = /^(~|\^)(\{(?:commit)?\}|\d+)?/.exec(rest.slice(i));
    if (!m || m[0] === '') return { ok: false, reason: `"${rest.slice(i)}" in "${rev}" is not understood (use ~n, ^n or ^{commit})` };
    const op = m[1] as '~' | '^';
    const arg = m[2];
    if (arg !== undefined && arg.startsWith('{')) {
      if (op === '~') return { ok: false, reason: `"~${arg}" in "${rev}" is not understood` };
      steps.push({ op: '^', n: 0 });
    } else {
      const n = arg === undefined ? 1 : Number(arg);
      if (!Number.isSafeInteger(n)) return { ok: false, reason: `"${m[0]}" in "${rev}" is too large` };
      steps.push({ op, n });
    }
    i += m[0].length;
  }
  return { ok: true, revision: { base, upstream, steps } };
}

export interface RevisionRange {
  /** The side the changes are measured from (HEAD when empty). */
  from: string;
  /** The side the changes lead to (HEAD when empty). */
  to: string;
  /** `..`, `...`, or none for a single revision. */
  dots: '..' | '...' | '';
}

/**
 * Splits `A..B`, `A...B` (either side may be empty, meaning HEAD) or a single revision.
 *
 * @example
 * splitRevisionRange('main...feature') // { from: 'main', to: 'feature', dots: '...' }
 * splitRevisionRange('HEAD~1..') // { from: 'HEAD~1', to: 'HEAD', dots: '..' }
 * splitRevisionRange('v1.2') // { from: 'v1.2', to: 'HEAD', dots: '' }
 */
export function splitRevisionRange(range: string): RevisionRange {
  const trimmed = range.trim();
  const m = /^(.*?)(\.\.\.?)(.*)$/.exec(trimmed);
  if (!m) return { from: trimmed, to: 'HEAD', dots: '' };
  return { from: m[1] || 'HEAD', to: m[3] || 'HEAD', dots: m[2] as '..' | '...' };
}
