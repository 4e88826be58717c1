/**
 * The self-report layer: `[MEMORY: type] text` tags the assistant writes (taught by the
 * rules file `cortex init --claude` installs), a person's "remember that …" prompts and
 * `#` memory input. What someone asked to be remembered is stored at confidence 1.0.
 */
import { isMemoryType, type MemoryType } from '../memory.js';
import type { Candidate } from './types.js';
import { cleanSummary, clip, filesIn, oneLine, sentences, tagsOf } from './prose.js';

/**
 * Self-report tag aliases. `learned` maps to `gotcha`: what an assistant "learns" mid-task
 * is almost always something that did not work as expected, and gotchas outlive context
 * (45 vs 30 days) and get more briefing budget. Unknown tags fall back to `context`.
 */
export const SELF_REPORT_ALIASES: Readonly<Record<string, MemoryType>> = {
  learned: 'gotcha',
  learning: 'gotcha',
  lesson: 'gotcha',
  til: 'gotcha',
  pitfall: 'gotcha',
  warning: 'gotcha',
  bug: 'gotcha',
  decided: 'decision',
  choice: 'decision',
  reject: 'rejected',
  rejection: 'rejected',
  'rejected-approach': 'rejected',
  arch: 'architecture',
  design: 'architecture',
  convention: 'pattern',
  pref: 'preference',
  todo: 'plan',
  note: 'context',
  fact: 'context',
  info: 'context',
};

/**
 * The memory type a `[MEMORY: …]` tag names: a known type, an alias, or `context`.
 *
 * @example
 * selfReportType('Decision') // 'decision'
 * selfReportType('learned')  // 'gotcha'
 * selfReportType('whatever') // 'context'
 */
export function selfReportType(tag: string): MemoryType {
  const key = tag.trim().toLowerCase();
  if (isMemoryType(key)) return key;
  return SELF_REPORT_ALIASES[key] ?? 'context';
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const MEMORY_TAG = /\[MEMORY:\s*([A-Za-z_-]*)\s*\]/gi;
const MAX_BODY_CHARS = 1200;

interface Ctx {
  session: string;
  branch: string | undefined;
  key: string;
}

/** Paragraphs of prose with fenced code removed (tags there are examples, not reports). */
function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let fence: string | undefined;
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1]?.[0] === fence[0] && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      flush();
      fence = f[1];
      continue;
    }
    if (line.trim() === '' || line.trim().startsWith('>')) flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

/** `[MEMORY: type] …` tags in assistant prose, one candidate each. */
export function selfReports(text: string, ctx: Ctx): Candidate[] {
  if (!/\[MEMORY:/i.test(text)) return [];
  const out: Candidate[] = [];
  proseBlocks(text).forEach((block, b) => {
    // A tag inside inline code documents the syntax; it does not report anything.
    const masked = block.replace(/`+[^`]*`+/g, (m) => ' '.repeat(m.length));
    const tags = [...masked.matchAll(MEMORY_TAG)];
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i];
      if (tag === undefined) continue;
      const start = (tag.index ?? 0) + tag[0].length;
      const end = tags[i + 1]?.index ?? block.length;
      const raw = block.slice(start, end).split(/\n\s*(?:[-*+]|\d+[.)])\s+/)[0] ?? '';
      const body = raw.trim();
      if (body === '') continue;
      const summary = cleanSummary(sentences(oneLine(body))[0] ?? body);
      if (summary === '') continue;
      const files = filesIn(body);
      out.push({
        type: selfReportType(tag[1] ?? ''),
        summary,
        body: clip(body, MAX_BODY_CHARS),
        confidence: 1,
        tags: tagsOf(body),
        layer: 'self-report',
        ...(files.length > 0 ? { files } : {}),
        session: ctx.session,
        ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
        key: `${ctx.key}:m${b}.${i}`,
        speaker: 'assistant',
      });
    }
  });
  return out;
}

/** "remember" opening a sentence (after please/also/and), up to the end of that sentence. */
const REMEMBER =
  /(?:^|[.!?]\s+|\n\s*)(?:(?:please|also|and|oh|btw),?\s+)*(?:always\s+)?remember(?:\s+that\b|\s*:|,)\s*([^\n]+?(?:[.!?](?=\s|$)|(?=\n)|$))/gi;

/** "remember that …" / "remember: …" in a real prompt: a preference stated by the person. */
export function rememberRequests(prompt: string, ctx: Ctx): Candidate[] {
  const out: Candidate[] = [];
  let i = 0;
  for (const match of prompt.matchAll(REMEMBER)) {
    const first = (match[1] ?? '').trim();
    if (first.endsWith('?')) continue;
    const c = userPreference(first, { ...ctx, key: `${ctx.key}:r${i++}` });
    if (c.summary.length >= 8) out.push(c);
  }
  return out;
}

/** A preference the person stated explicitly (remember request or `#` memory input). */
export function userPreference(text: string, ctx: Ctx): Candidate {
  const clean = cleanSummary(text);
  const summary = clean.charAt(0).toUpperCase() + clean.slice(1);
  const files = filesIn(text);
  return {
    type: 'preference',
    summary,
    body: clip(text.trim(), MAX_BODY_CHARS),
    confidence: 1,
    tags: tagsOf(text),
    layer: 'self-report',
    ...(files.length > 0 ? { files } : {}),
    session: ctx.session,
    ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
    key: ctx.key,
    speaker: 'user',
  };
}
