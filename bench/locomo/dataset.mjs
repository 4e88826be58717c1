/**
 * LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0): locating the data outside the
 * repository, turning each dialog turn into the paper's retrieval unit, and normalising
 * the evidence ids. The data is read in place and never copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the data may live: beside the clone (`../shared/bench-data`), then the shared workspace. */
export function dataCandidates(env = process.env) {
  return [
    env.LOCOMO_DATA,
    join(REPO_ROOT, '..', 'shared', 'bench-data', 'locomo', 'locomo10.json'),
    '/work/shared/bench-data/locomo/locomo10.json',
  ].filter(Boolean);
}

export function findData(env = process.env) {
  const candidates = dataCandidates(env);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    const list = candidates.map((p) => `  ${p}`).join('\n');
    const err = new Error(
      `LoCoMo data not found. Looked for locomo10.json at:\n${list}\n` +
        'Get data/locomo10.json from https://github.com/snap-research/LoCoMo (CC BY-NC 4.0) and put it at the first path, ' +
        'or set LOCOMO_DATA=/path/to/locomo10.json. Do not commit it into this repository.',
    );
    err.code = 'NO_DATA';
    throw err;
  }
  return found;
}

/** Category codes of the data, in the paper's column order (the codes are not in that order). */
export const CATEGORIES = [
  { code: 4, name: 'Single Hop' },
  { code: 1, name: 'Multi Hop' },
  { code: 2, name: 'Temporal' },
  { code: 3, name: 'Open Domain' },
  { code: 5, name: 'Adversarial' },
];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** `"1:56 pm on 8 May, 2023"` → `2023-05-08T13:56:00Z` (the conversations carry no time zone). */
export function parseSessionDate(text) {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (!m) return undefined;
  let hour = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) return undefined;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The paper's Dialog unit: `(<session date_time>) <speaker> said, "<text>"`, plus
 * ` [shares <blip_caption>]` when the turn shared an image.
 */
export function unitText(dateTime, turn) {
  const shares = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : '';
  return `(${dateTime}) ${turn.speaker} said, "${turn.text}"${shares}`;
}

/** Every turn of every session (all sessions, not only 1–19 as the released script does). */
export function turnsOf(sample) {
  const conv = sample.conversation;
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k)?.[1])
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
  const turns = [];
  for (const n of sessions) {
    const dateTime = conv[`session_${n}_date_time`] ?? '';
    for (const [position, turn] of (conv[`session_${n}`] ?? []).entries()) {
      turns.push({ diaId: turn.dia_id, session: n, position, dateTime, speaker: turn.speaker, text: unitText(dateTime, turn) });
    }
  }
  return { sessions: sessions.length, turns };
}

/**
 * Evidence ids as the data README prescribes: split on `;` and whitespace, keep the ids that
 * name a turn, drop the rest. One canonicalisation beyond that: leading zeros (`D30:05` is
 * `D30:5`), so that question is scored rather than left with no evidence.
 */
export function normaliseEvidence(evidence, known) {
  const out = [];
  let dropped = 0;
  for (const raw of evidence ?? []) {
    for (const part of String(raw).split(/[;\s]+/)) {
      if (part === '') continue;
      const m = /^D(\d+):(\d+)$/.exec(part);
      const id = m ? `D${Number(m[1])}:${Number(m[2])}` : part;
      if (known.has(id)) {
        if (!out.includes(id)) out.push(id);
      } else dropped++;
    }
  }
  return { ids: out, dropped };
}

export function loadLocomo(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}
