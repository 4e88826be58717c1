/**
 * The second recall data set (bench/mail/dataset.mjs) and the plain-BM25 control
 * (bench/lib/bm25.mjs): how a message's own text, the questions and their evidence are read
 * from mail, on plain data.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

// Computed specifiers: plain JavaScript modules of the benchmarks, typed loosely here.
const mail = await import(pathToFileURL(join(REPO_ROOT, 'bench/mail/dataset.mjs')).href);
const { plainBm25 } = await import(pathToFileURL(join(REPO_ROOT, 'bench/lib/bm25.mjs')).href);

const raw = (headers: string, body: string) => `${headers.trim()}\n\n${body}`;

describe('a message’s own text', () => {
  it('drops quoted lines of every style, attributions, quoted headers, the signature and the list footer', () => {
    const { headers, body } = mail.parseMessage(
      raw(
        'From: Kate <kate@example.org>\nSubject: Re: [ILUG] ext3\nContent-Type: text/plain',
        [
          'On Fri, 9 Aug 2002, Padraig Brady wrote:',
          '> ext2 can mount an ext3 partition',
          '  | an older quoting style',
          '--] yet another',
          'G> initials before the marker',
          '    Date:        Mon, 26 Aug 2002 09:27:56 -0500',
          'Alas, I have been following that howto.',
          '',
          'It does not work with ext3 as the root.',
          '-- ',
          'Kate, who signs',
          '_______________________________________________',
          'ILUG mailing list',
        ].join('\n'),
      ),
    );
    expect(mail.ownText(headers, body)).toBe('Alas, I have been following that howto.\n\nIt does not work with ext3 as the root.');
  });

  it('reads the text/plain part of a multipart message and decodes quoted-printable', () => {
    const { headers, body } = mail.parseMessage(
      raw(
        'Content-Type: multipart/alternative; boundary="XX"',
        ['--XX', 'Content-Type: text/plain', 'Content-Transfer-Encoding: quoted-printable', '', 'caf=E9 and a soft=', ' break', '--XX', 'Content-Type: text/html', '', '<p>html</p>', '--XX--'].join('\n'),
      ),
    );
    expect(mail.ownText(headers, body)).toBe('café and a soft break');
  });

  it('cleans subjects, names senders and reads dates', () => {
    expect(mail.cleanSubject('Re: RE: [Razor-users] Re: razor plugins for mozilla? (was: Re: old)')).toBe('razor plugins for mozilla?');
    expect(mail.senderName('"Tabor J. Wells" <razor-users@fsckit.net>')).toBe('Tabor J. Wells');
    expect(mail.senderName('tomwhore@slack.net (Tom)')).toBe('Tom');
    expect(mail.senderName('<kre@munnari.OZ.AU>')).toBe('kre');
    expect(mail.isoDate('Thu, 22 Aug 2002 18:26:25 +0700')).toBe('2002-08-22T11:26:25Z');
    expect(mail.isoDate('not a date')).toBeUndefined();
  });
});

describe('the questions of a list', () => {
  const message = (id: string, date: string, extra: Record<string, unknown> = {}) => ({
    id: `<${id}>`,
    list: 'l.example.org',
    date,
    from: id,
    subject: 'Re: the disk quota question',
    text: `message ${id} with a few words of its own`,
    parent: undefined,
    references: [] as string[],
    ...extra,
  });
  const root = message('root', '2002-08-01T10:00:00Z', { subject: 'The disk quota question' });
  const first = message('first', '2002-08-01T11:00:00Z', { parent: '<root>', references: ['<root>'] });
  const second = message('second', '2002-08-02T09:00:00Z', { parent: '<first>', references: ['<root>', '<first>'] });
  // A sender whose clock is a day behind: dated before the message it answers.
  const skewed = message('skewed', '2002-07-31T09:00:00Z', { parent: '<first>', references: ['<root>', '<first>'] });

  it('asks each reply of the memory before it, with its earlier messages as evidence, and each thread of three or more by its subject', () => {
    const conv = mail.conversationOf('l.example.org', [second, root, first]);
    expect(conv.messages.map((m: { id: string }) => m.id)).toEqual(['<root>', '<first>', '<second>']);
    expect(conv.questions).toEqual([
      { category: 'reply', question: 'message first with a few words of its own', evidence: ['<root>'], at: 1 },
      { category: 'thread', question: 'message second with a few words of its own', evidence: ['<first>', '<root>'], at: 2 },
      { category: 'topic', question: 'The disk quota question', evidence: ['<root>', '<first>', '<second>'], at: 3 },
    ]);
  });

  it('never counts as evidence a message that comes after the reply in date order', () => {
    const conv = mail.conversationOf('l.example.org', [root, first, skewed]);
    const asked = conv.questions.filter((q: { category: string }) => q.category !== 'topic');
    for (const q of asked) for (const e of q.evidence) expect(conv.messages.findIndex((m: { id: string }) => m.id === e)).toBeLessThan(q.at);
    // The skewed reply is first in date order: nothing before it, no question.
    expect(asked.map((q: { question: string }) => q.question)).toEqual(['message first with a few words of its own']);
  });

  it('writes a memory as its date, sender and own text', () => {
    expect(mail.unitText(first)).toBe('(2002-08-01) first wrote, "message first with a few words of its own"');
    expect(mail.sessionOf(first)).toBe('l-2002-08-01');
  });
});

describe('the plain-BM25 control', () => {
  it('stems, and does nothing else: no prefix, no stop words removed, no synonyms', () => {
    const index = plainBm25([
      { id: 'paint', text: 'Melanie painted the lake at dawn' },
      { id: 'db', text: 'We chose SQLite as the database' },
    ]);
    expect(index.search('paintings', 5)).toEqual(['paint']);
    expect(index.search('datab', 5)).toEqual([]);
    expect(index.search('postgres', 5)).toEqual([]);
    expect(index.search('the', 5).sort()).toEqual(['db', 'paint']);
    index.add({ id: 'late', text: 'A lake added later' });
    expect(index.search('lake', 5).sort()).toEqual(['late', 'paint']);
  });
});
