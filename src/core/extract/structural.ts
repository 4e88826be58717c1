/**
 * The structural layer: what the tool calls say without reading any prose. The session's
 * latest TodoWrite list is its plan (one per session, so sessions never overwrite each
 * other's plans); files edited, commands run and commits made are its progress note.
 */
import { normalizeTags } from '../memory.js';
import type { Candidate, CommitInfo, ExtractState, TodoItem } from './types.js';
import { basename, oneLine, shorten, MAX_CANDIDATE_SUMMARY } from './prose.js';

const MAX_LISTED_FILES = 30;

export function parseTodos(value: unknown): TodoItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: TodoItem[] = [];
  for (const raw of value) {
    if (raw === null || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const content = typeof r.content === 'string' ? r.content : typeof r.subject === 'string' ? r.subject : undefined;
    if (content === undefined || content.trim() === '') continue;
    const status = r.status === 'completed' || r.status === 'in_progress' ? r.status : 'pending';
    items.push({ content: oneLine(content), status });
  }
  return items;
}

function checklistLine(t: TodoItem): string {
  const box = t.status === 'completed' ? 'x' : ' ';
  return `- [${box}] ${t.content}${t.status === 'in_progress' ? ' (in progress)' : ''}`;
}

/** The short form of a session id used in summaries and topics. */
export function shortSession(session: string): string {
  const clean = session.replace(/[^A-Za-z0-9]/g, '');
  return (clean === '' ? 'session' : clean).slice(0, 8).toLowerCase();
}

const GIT_COMMIT = /(?:^|[\s;&|(])git\s+(?:-[Cc]\s+\S+\s+|--?[\w-]+(?:=\S+)?\s+)*commit\b/;
const COMMIT_LINE = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m;

/** A commit made by a Bash call: the subject from git's own output, else from `-m`. */
export function commitOf(command: string, stdout: string, isError: boolean): CommitInfo | undefined {
  if (!GIT_COMMIT.test(command)) return undefined;
  const line = COMMIT_LINE.exec(stdout);
  if (line) return { hash: line[2], subject: (line[3] ?? '').trim() };
  if (isError || /nothing to commit|no changes added to commit/i.test(stdout)) return undefined;
  const message = commitMessage(command);
  return message === undefined ? undefined : { subject: message };
}

function commitMessage(command: string): string | undefined {
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1\b/.exec(command);
  // -m, combined short flags such as -am, or --message=
  const quoted = /(?:\s-[a-zA-Z]*m|\s--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(command);
  const text = quoted?.[1] !== undefined && !quoted[1].startsWith('$(') ? quoted[1] : quoted?.[2] ?? heredoc?.[2];
  const subject = text
    ?.replace(/\\"/g, '"')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return subject === undefined ? undefined : subject.slice(0, 150);
}

export function shortCommand(command: string): string {
  const first = command.trim().split('\n')[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

interface StructuralContext {
  session: string;
  branch: string | undefined;
  now: Date | string;
}

/**
 * The session's plan (its latest todo list) and progress note, as upsert candidates.
 * The plan's topic is `plan/<session>`: a new session's plan never replaces another
 * session's live plan. Its summary starts with a prefix that never changes (branch,
 * session, the plan's first step when it was first written), so the id made from the
 * first summary keeps matching it. A plan whose every step is done becomes a
 * `progress` note and is archived, so it leaves `plan.md` and the briefing.
 */
export function structuralCandidates(state: ExtractState, ctx: StructuralContext): Candidate[] {
  const out: Candidate[] = [];
  const todos = state.todos;
  if (todos !== undefined && todos.items.length > 0) {
    // The branch the plan is being carried out on: the caller's (HEAD) when it knows it.
    const branch = ctx.branch ?? todos.branch;
    const done = todos.items.filter((t) => t.status === 'completed').length;
    const total = todos.items.length;
    const finished = done === total;
    const current = todos.items.find((t) => t.status === 'in_progress');
    const next = todos.items.find((t) => t.status === 'pending');
    const title = todos.title ?? todos.items[0]?.content ?? 'plan';
    const prefix = `Plan on ${branch ?? 'no branch'} (session ${shortSession(ctx.session)}): ${shorten(title, 60)}`;
    const tail = finished ? `finished, ${total}/${total} done` : `${done}/${total} done${current ? `, now: ${current.content}` : next ? `, next: ${next.content}` : ''}`;
    out.push({
      type: finished ? 'progress' : 'plan',
      summary: shorten(`${prefix} — ${tail}`, MAX_CANDIDATE_SUMMARY),
      body: todos.items.map(checklistLine).join('\n'),
      confidence: 0.9,
      tags: normalizeTags(['plan', ...(branch === undefined ? [] : [branch])]),
      topic: `plan/${shortSession(ctx.session)}`,
      layer: 'structural',
      session: ctx.session,
      ...(branch === undefined ? {} : { branch }),
      ...(finished ? { status: 'archived' as const } : {}),
    });
  }

  const edited = state.edited.length;
  const commits = state.commits.length;
  if (edited + commits + state.commands + state.read.length > 0) {
    const parts: string[] = [];
    if (edited > 0) {
      const names = state.edited.slice(0, 3).map(basename).join(', ');
      parts.push(`edited ${plural(edited, 'file')} (${names}${edited > 3 ? ` +${edited - 3}` : ''})`);
    } else if (state.read.length > 0) parts.push(`read ${plural(state.read.length, 'file')}`);
    if (commits > 0) parts.push(plural(commits, 'commit'));
    if (state.commands > 0) parts.push(`ran ${plural(state.commands, 'command')}`);
    const where = ctx.branch === undefined ? 'Session' : `Session on ${ctx.branch}`;
    const lastCommit = state.commits[commits - 1];
    const summary = `${where}: ${parts.join(', ')}${lastCommit ? `; last commit: ${lastCommit.subject}` : ''}`;

    const lines: string[] = [];
    const others = state.sessions.filter((s) => s !== ctx.session);
    const span = `${shortTime(state.firstTimestamp ?? ctx.now)} – ${shortTime(state.lastTimestamp ?? ctx.now)}`;
    const also = others.length > 0 ? ` (also ${others.map(code).join(', ')})` : '';
    const on = state.branches.length > 0 ? ` on ${state.branches.map(code).join(' → ')}` : '';
    lines.push(`Session ${code(ctx.session)}${also}${on}, ${span}, ${plural(state.prompts, 'prompt')}.`);
    if (todos !== undefined && todos.items.length > 0) {
      const done = todos.items.filter((t) => t.status === 'completed').length;
      lines.push('', `Plan: ${done}/${todos.items.length} steps done.`);
    }
    if (edited > 0) {
      lines.push('', `Edited (${edited}):`);
      for (const f of state.edited.slice(0, MAX_LISTED_FILES)) lines.push(`- ${f}`);
      if (edited > MAX_LISTED_FILES) lines.push(`- … and ${edited - MAX_LISTED_FILES} more`);
    }
    if (commits > 0) {
      lines.push('', `Commits (${commits}):`);
      for (const c of state.commits) lines.push(`- ${c.hash === undefined ? '' : `\`${c.hash.slice(0, 7)}\` `}${c.subject}`);
    }
    if (state.commands > 0) {
      lines.push('', `Commands (${state.commands}), latest:`);
      for (const c of state.recentCommands) lines.push(`- \`${c.replace(/`/g, "'")}\``);
    }
    if (state.read.length > 0) lines.push('', `Read ${plural(state.read.length, 'file')}.`);

    out.push({
      type: 'progress',
      summary: shorten(summary, MAX_CANDIDATE_SUMMARY),
      body: lines.join('\n'),
      confidence: commits > 0 ? 0.9 : edited > 0 ? 0.85 : 0.8,
      tags: normalizeTags(['session', ...(ctx.branch === undefined ? [] : [ctx.branch])]),
      topic: `session/${ctx.session}`,
      layer: 'structural',
      ...(edited > 0 ? { files: state.edited.slice(0, MAX_LISTED_FILES) } : {}),
      session: ctx.session,
      ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
    });
  }
  return out;
}

function shortTime(value: Date | string): string {
  const iso = typeof value === 'string' ? value : value.toISOString();
  return iso.replace(/:\d{2}(?:\.\d+)?Z$/, 'Z');
}

function code(text: string): string {
  return `\`${text}\``;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
