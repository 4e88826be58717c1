/**
 * Recall in any language: one memory per script among unrelated ones, found by a query in
 * that script that shares a word with it but not its wording. Scripts written without
 * spaces are matched through character bigrams, accents are folded, emoji and code
 * identifiers are words.
 */
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { memoryFile } from './helpers/models.js';
import { tempRepo } from './helpers/repo.js';

const MEMORIES: [id: string, summary: string][] = [
  ['japanese-db-aaaaaa', 'データベースはSQLiteを選びました。サーバーが不要だからです'],
  ['chinese-cache-aaaaab', '我们决定使用Redis作为缓存，因为它的延迟很低'],
  ['korean-deploy-aaaaac', '배포는 금요일에 하지 않기로 결정했습니다'],
  ['thai-review-aaaaad', 'ทีมตัดสินใจใช้การตรวจสอบโค้ดทุกครั้งก่อนรวมสาขา'],
  ['arabic-log-aaaaae', 'قررنا حفظ السجلات لمدة ثلاثين يوما فقط'],
  ['russian-queue-aaaaaf', 'Очередь задач работает на RabbitMQ, а не на Kafka'],
  ['french-accents-aaaaag', 'Le modèle de données utilise des identifiants générés côté serveur'],
  ['emoji-release-aaaaah', 'Release checklist: 🚀 means shipped, 🔥 means hotfix needed'],
  ['identifier-aaaaai', 'The retry loop reads max_retries from config and calls fetchWithBackoff'],
  ['english-filler-aaaaaj', 'We use pnpm workspaces for the monorepo packages'],
  ['english-filler-aaaaak', 'Dates are stored in UTC and rendered in the user time zone'],
];

const CASES: [script: string, query: string, expected: string][] = [
  ['Japanese', 'どのデータベースを使う？', 'japanese-db-aaaaaa'],
  ['Japanese (no spaces, single word)', '日本語のサーバー', 'japanese-db-aaaaaa'],
  ['Chinese', '缓存用什么', 'chinese-cache-aaaaab'],
  ['Korean', '배포 요일', 'korean-deploy-aaaaac'],
  ['Thai', 'การตรวจสอบโค้ด', 'thai-review-aaaaad'],
  ['Arabic (with short vowels in the query)', 'السِّجِلَّات', 'arabic-log-aaaaae'],
  ['Cyrillic', 'очередь задач', 'russian-queue-aaaaaf'],
  ['accented Latin, typed without accents', 'modele donnees generes cote serveur', 'french-accents-aaaaag'],
  ['emoji', '🔥', 'emoji-release-aaaaah'],
  ['snake_case identifier', 'max_retries', 'identifier-aaaaai'],
  ['camelCase identifier', 'fetchWithBackoff', 'identifier-aaaaai'],
];

describe('recall in any language', () => {
  it.each(CASES)('%s: finds the memory first', async (_script, query, expected) => {
    const files = Object.fromEntries(MEMORIES.map(([id, summary]) => memoryFile({ id, summary })));
    const repo = tempRepo(files, { git: false });
    const cortex = openCortex({ dir: repo.dir, includeGlobal: false, env: { CORTEX_HOME: repo.home } });
    const { results } = await cortex.recall({ query, recordAccess: false });
    expect(results[0]?.id).toBe(expected);
  });

  it('a word in one script does not match text in another', async () => {
    const files = Object.fromEntries(MEMORIES.map(([id, summary]) => memoryFile({ id, summary })));
    const repo = tempRepo(files, { git: false });
    const cortex = openCortex({ dir: repo.dir, includeGlobal: false, env: { CORTEX_HOME: repo.home } });
    const { results } = await cortex.recall({ query: '猫', recordAccess: false });
    expect(results).toEqual([]);
  });
});
