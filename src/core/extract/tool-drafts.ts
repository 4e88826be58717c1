/**
 * Drafts read from what the session's tools did, not from its prose: documents and rules files
 * it wrote, a command the person's settings blocked, and a failed command whose next variant
 * passed (a workaround). Split from `conversation.ts`, which judges the exchange they join.
 */
import { signal, specificTokens, textFeatures } from './signals.js';
import type { Draft } from './types.js';
import { cleanInline, cleanSummary, clip, oneLine, shorten, tagsOf } from './prose.js';
import { BASE, add, identsOf, proseDrafts, score, titleOf, when, words } from './conversation.js';
/** Files whose content is a project's rules for people and assistants. */
export const RULES_FILE = /(?:^|\/)(?:CLAUDE|AGENTS|GEMINI|CONVENTIONS|CONTRIBUTING|STYLE(?:GUIDE)?|CODING_STANDARDS)(?:\.local)?\.md$|(?:^|\/)\.cursorrules$|(?:^|\/)\.windsurfrules$|(?:^|\/)\.cursor\/rules\/|(?:^|\/)\.claude\/rules\/|(?:^|\/)\.github\/copilot-instructions\.md$|\.mdc$/i;
/** Lint, format and hook configuration: conventions enforced by tools. */
export const LINT_FILE = /(?:^|\/)(?:\.eslintrc(?:\.\w+)?|eslint\.config\.\w+|\.prettierrc(?:\.\w+)?|prettier\.config\.\w+|biome\.jsonc?|ruff\.toml|\.ruff\.toml|\.pre-commit-config\.ya?ml|\.editorconfig|\.golangci\.ya?ml|rustfmt\.toml|clippy\.toml|\.stylelintrc(?:\.\w+)?|\.flake8|\.pylintrc|\.husky\/[\w-]+|lefthook\.ya?ml|\.markdownlint(?:\.\w+)?)$/i;
/** Documents worth a pointer: prose files outside dependencies and logs. */
const DOC_FILE = /\.(?:md|mdx|markdown|rst|adoc|txt)$/i;
const NOT_DOC = /(?:^|\/)(?:node_modules|vendor|dist|build|\.git|\.cortex|logs?|tmp|\.memory)\//i;

/** The lines an edit adds (the new text minus the lines the old text already had). */
export function addedLines(oldText: string, newText: string): string {
  const before = new Set(oldText.split('\n').map((l) => l.trim()));
  return newText
    .split('\n')
    .filter((l) => l.trim() !== '' && !before.has(l.trim()))
    .join('\n');
}

/**
 * A draft for a written rules file, lint configuration or document: what it records,
 * pointing at the file rather than copying it.
 */
/**
 * The lines of a written rules file or document that carry most, in their order, under
 * their section headings: rules, choices, rejections, causes first; within `max`
 * characters. A summary that points at the file, not a copy of it.
 */
export function summariseLines(text: string, max: number): string {
  const rows: { line: string; weight: number; heading: boolean; order: number }[] = [];
  let fence = false;
  text.split('\n').forEach((raw, order) => {
    const line = raw.trim();
    if (/^(?:```|~~~)/.test(line)) {
      fence = !fence;
      return;
    }
    if (fence || line === '' || /^[|>]/.test(line) || /^[-*_=]{3,}$/.test(line)) return;
    const heading = /^#{1,6}\s+\S/.test(line);
    const f = textFeatures(line);
    const weight = heading ? 0 : (f.normative ? 3 : 0) + (f.choice || f.rejection ? 3 : 0) + (f.diagnosis || f.constraint ? 2 : 0) + Math.min(2, f.specific) * 0.5 + (f.words >= 4 ? 0.5 : 0);
    rows.push({ line: cleanInline(line).replace(/^#+\s*/, ''), weight, heading, order });
  });
  // Take the weightiest lines until the budget is spent, then print them in document order
  // under the nearest heading above each.
  const chosen = new Set<number>();
  let used = 0;
  for (const r of [...rows].filter((x) => !x.heading && x.weight > 0).sort((a, b) => b.weight - a.weight || a.order - b.order)) {
    if (used + r.line.length + 3 > max) continue;
    chosen.add(r.order);
    used += r.line.length + 3;
  }
  const out: string[] = [];
  let lastHeading: string | undefined;
  let printedHeading: string | undefined;
  for (const r of rows) {
    if (r.heading) {
      lastHeading = r.line;
      continue;
    }
    if (!chosen.has(r.order)) continue;
    if (lastHeading !== undefined && lastHeading !== printedHeading && used + lastHeading.length + 2 <= max + 200) {
      out.push(`${lastHeading}:`);
      printedHeading = lastHeading;
    }
    out.push(`- ${r.line}`);
  }
  return clip(out.join('\n'), max + 200);
}

export function documentDraft(path: string, added: string, ctx: { key: string; at: string | undefined; whole: boolean; requested: boolean }): Draft | undefined {
  if (NOT_DOC.test(path) || added.trim() === '') return undefined;
  const rules = RULES_FILE.test(path);
  const lint = !rules && LINT_FILE.test(path);
  if (!rules && !lint && !DOC_FILE.test(path)) return undefined;
  if (rules || lint) {
    const lines = added
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !/^#{1,6}\s*$/.test(l) && !/^(?:```|~~~)/.test(l));
    if (lines.length === 0) return undefined;
    const ruleLines = lines.filter((l) => textFeatures(l).normative || /^[-*]\s/.test(l));
    const firstRule = cleanSummary(ruleLines[0] ?? lines[0] ?? '');
    if (firstRule.length < 6) return undefined;
    const d: Draft = {
      key: `doc:${path}`,
      type: 'pattern',
      summary: shorten(`${rules ? 'Rule' : 'Tool rule'} in ${path}: ${firstRule}`, 200),
      body: `${summariseLines(added, 1000)}\n\n— ${ctx.whole ? 'written to' : 'added to'} \`${path}\`${when(ctx.at)}.`,
      speaker: 'assistant',
      kind: 'convention',
      base: BASE.convention,
      signals: [signal('knowledgeLabel')],
      files: [path],
      tags: [],
      words: words(`${path} ${lines.slice(0, 6).join(' ')}`),
      idents: [],
      at: ctx.at,
    };
    if (ruleLines.length > 0) add(d, 'normative');
    if (ctx.requested) add(d, 'answer');
    return d;
  }
  // A document: its title and the statements in it that carry most.
  const title = titleOf(added);
  // The opening of a document says what it is about; reading a long one whole costs a hook's budget.
  const statements = proseDrafts(added.slice(0, 6000), { key: 'doc', at: ctx.at, sidechain: false, failing: false, final: false })
    .sort((a, b) => score(b) - score(a))
    .slice(0, 6);
  const headings = [...added.matchAll(/^\s{0,3}#{2,3}\s+(.+)$/gm)].map((m) => cleanInline(m[1] ?? '')).slice(0, 8);
  const lead = statements[0]?.summary;
  if (title === '' && lead === undefined) return undefined;
  const decisionDoc = /(?:^|\/)(?:adr|adrs|decisions?|rfcs?|specs?|proposals?|design)(?:\/|[-_.])/i.test(path) || /\b(?:decision|adr|rfc|spec|proposal|design)\b/i.test(title);
  const d: Draft = {
    key: `doc:${path}`,
    type: decisionDoc ? 'decision' : 'context',
    summary: shorten(title !== '' && lead !== undefined && lead !== title ? `${title} (${path}): ${lead}` : `${title !== '' ? title : lead} (${path})`, 200),
    body: `${lead !== undefined && title !== '' ? `${lead}\n` : ''}${statements
      .slice(lead !== undefined && title !== '' ? 1 : 0)
      .map((s) => `- ${s.summary}`)
      .join('\n')}${headings.length > 0 ? `\n\nSections: ${headings.join('; ')}` : ''}\n\n— ${ctx.whole ? 'written to' : 'updated in'} \`${path}\`${when(ctx.at)}.`,
    speaker: 'assistant',
    kind: 'document',
    base: BASE.document,
    signals: [],
    files: [path],
    tags: tagsOf(added.slice(0, 2000)),
    words: words(`${title} ${statements.map((s) => s.summary).join(' ')}`),
    idents: [],
    at: ctx.at,
  };
  if (statements.some((s) => s.signals.some((x) => x.name === 'diagnosis' || x.name === 'constraint'))) add(d, 'constraint');
  if (ctx.requested) add(d, 'answer');
  const specific = textFeatures(`${title} ${lead ?? ''}`).specific;
  add(d, specific >= 2 ? 'specific2' : specific === 1 ? 'specific1' : 'generic');
  return d;
}

// ---------------------------------------------------------------------------
// Failures

/**
 * A tool call a hook of the person's setup blocked ("PreToolUse:Bash hook error: …
 * BLOCKED: Dangerous rm command"): a standing rule of the environment, seen first hand.
 */
export function blockedDraft(action: string, message: string, ctx: { key: string; at: string | undefined }): Draft | undefined {
  const hook = /^(\w+):(\w+) hook error:?\s*(?:\[([^\]]*)\])?:?\s*([\s\S]*)$/.exec(message.trim());
  if (!hook) return undefined;
  const [, event = 'hook', tool = '', script = '', reason = ''] = hook;
  const why = shorten(oneLine(reason), 160);
  const scriptName = script.split(/[\s/\\]/).filter(Boolean).pop() ?? '';
  const d: Draft = {
    key: `hook:${event}:${tool}:${why.toLowerCase().slice(0, 40)}`,
    type: 'gotcha',
    summary: shorten(`A ${event} hook${scriptName !== '' ? ` (${scriptName})` : ''} blocks ${action}${why !== '' ? `: ${why}` : ''}`, 200),
    body: `${clip(message.trim(), 500)}\n\n— the ${tool || 'tool'} call was blocked by a hook${when(ctx.at)}.`,
    speaker: 'assistant',
    kind: 'failure',
    base: BASE.failure,
    signals: [signal('blockedByHook'), signal('constraint')],
    files: [],
    tags: [],
    words: words(`${event} ${tool} ${why}`),
    idents: identsOf(`${scriptName} ${why}`),
    at: ctx.at,
  };
  return d;
}

/** Words of a command that say what it runs, without runners, flags, paths and values. */
function commandWords(command: string): string[] {
  const first = (command.trim().split('\n')[0] ?? '').replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '');
  const head = first.split(/\s*(?:&&|\|\||;|\||2>&1|>)\s*/)[0] ?? first;
  return head
    .split(/[\s:]+/)
    .map((t) => t.toLowerCase())
    .filter((t) => /^[a-z][a-z0-9_-]{2,}$/.test(t) && !COMMAND_RUNNERS.has(t));
}

const COMMAND_RUNNERS = new Set(['npm', 'npx', 'run', 'yarn', 'pnpm', 'bun', 'bunx', 'sudo', 'env', 'bash', 'zsh', 'exec', 'time', 'nohup', 'python', 'python3', 'node', 'uv', 'poetry', 'pipx']);
/** Commands that only look (list, print, search, show state): never a way of doing the work. */
const INSPECTS = /^(?:ls|cat|head|tail|grep|rg|find|which|type|echo|pwd|wc|stat|file|less|tree|git\s+(?:status|log|diff|show|branch))\b/;

/**
 * A command that failed, followed at once — no file edited in between — by a different
 * command for the same job that passed: the second is how that job is done here ("`sudo
 * make install` fails (a terminal is required); `make install PREFIX=~/.local` works
 * instead"). The failure's own output proves the first half, the pass the second.
 */
export function workaroundDraft(failed: { command: string; symptom: string }, worked: string, ctx: { key: string; at: string | undefined }): Draft | undefined {
  if (failed.command === worked || programKey(failed.command) === programKey(worked)) return undefined;
  const head = worked.trim().replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '');
  if (INSPECTS.test(head)) return undefined;
  const before = commandWords(failed.command);
  const after = new Set(commandWords(worked));
  // The same job: two of its words shared, or the passing command a shorter form of the
  // failing one (`npm run test` for `npm run test:unit`) — one shared tool name is not enough.
  const shared = before.filter((w) => after.has(w)).length;
  if (shared < 2 && !(after.size > 0 && [...after].every((w) => before.includes(w)))) return undefined;
  const symptom = failed.symptom.trim();
  if (symptom.split(/\s+/).length < 2) return undefined;
  const summary = `\`${shorten(failed.command, 70)}\` fails here (${shorten(oneLine(symptom), 70)}); \`${shorten(worked, 70)}\` works instead`;
  const d: Draft = {
    key: ctx.key,
    type: 'gotcha',
    summary,
    body: `Ran \`${shorten(failed.command, 200)}\`: ${shorten(oneLine(symptom), 200)}\nThen \`${shorten(worked, 200)}\` passed, with no file changed in between.\n\n— seen in the session's commands${when(ctx.at)}.`,
    speaker: 'assistant',
    kind: 'failure',
    base: BASE.failure,
    signals: [signal('resolved')],
    files: [],
    tags: [],
    words: words(`${failed.command} ${worked}`),
    idents: identsOf(`${failed.command} ${worked}`),
    at: ctx.at,
  };
  const specific = specificTokens(summary).length;
  add(d, specific >= 2 ? 'specific2' : specific === 1 ? 'specific1' : 'generic');
  return d;
}

/** The part of a command that identifies what was run: the same key passing resolves it. */
export function programKey(command: string): string {
  let c = (command.trim().split('\n')[0] ?? '').trim();
  c = c.replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '');
  c = c.replace(/^(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|sudo|time|env|command|nohup|exec)\s+)+/, '');
  c = c.split(/\s*(?:&&|\|\||;|\||2>&1|>)\s*/)[0] ?? c;
  const tokens = c.split(/\s+/).filter((t) => t !== '' && !t.startsWith('-') && !/^["']/.test(t));
  const second = tokens[1] ?? '';
  const n = /^(?:run|exec|x|develop|dlx|test|build|check|lint|install|tool|workspace|-c)$/.test(second) ? 3 : 2;
  return tokens.slice(0, n).join(' ').toLowerCase();
}

const SYMPTOM = /\b(?:error|failed|failure|fatal|exception|not found|undefined|cannot|can't|unable|denied|panic|traceback|syntax error|exit(?:ed)? (?:code|status) \d+|conflict|missing|refused)\b/i;

/** The line of a failed command's output that says what went wrong. */
export function symptomOf(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^<\/?[\w-]+>$/.test(l));
  const line = lines.find((l) => SYMPTOM.test(l)) ?? lines[0] ?? '';
  return shorten(line.replace(/\s+/g, ' '), 200);
}
