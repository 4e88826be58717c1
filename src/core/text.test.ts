import { describe, expect, it } from 'vitest';
import { IRREGULAR_BASE, analyze, foldDiacritics, processTerm, tokenize } from './text.js';
import { planQuery } from './query.js';

describe('tokenize', () => {
  it('splits on punctuation and keeps unicode letters', () => {
    expect(tokenize('Chose SQLite (zero-config), naïve café')).toEqual(['Chose', 'SQLite', 'zero', 'config', 'naïve', 'café']);
  });

  it('turns scripts written without spaces into character bigrams', () => {
    expect(tokenize('日本語')).toEqual(['日本', '本語']);
    expect(tokenize('数据库')).toEqual(['数据', '据库']);
    expect(tokenize('猫')).toEqual(['猫']);
    expect(tokenize('한국어를')).toEqual(['한국', '국어', '어를']);
    // A Thai vowel mark stays with its consonant.
    expect(tokenize('ง่าย')).toEqual(['ง่า', 'าย']);
    // Mixed: the Latin part is a word of its own.
    expect(tokenize('SQLiteを選ぶ')).toEqual(['SQLite', 'を選', '選ぶ']);
  });

  it('keeps emoji and snake_case identifiers as words', () => {
    expect(tokenize('ship 🚀 now 👍🏽')).toEqual(['ship', '🚀', 'now', '👍🏽']);
    expect(tokenize('read max_retries first')).toEqual(['read', 'max_retries', 'first']);
  });
});

describe('foldDiacritics', () => {
  it('folds Latin and Greek accents, ё and Arabic short vowels, and leaves other marks', () => {
    expect(foldDiacritics('naïve café Müller señor')).toBe('naive cafe Muller senor');
    expect(foldDiacritics('ёлка')).toBe('елка');
    expect(foldDiacritics('مَرْحَبًا')).toBe('مرحبا');
    expect(foldDiacritics('ง่าย')).toBe('ง่าย');
    expect(foldDiacritics('データベース')).toBe('データベース');
    expect(foldDiacritics('plain ascii')).toBe('plain ascii');
  });
});

describe('processTerm', () => {
  it('drops stop words and stems', () => {
    expect(processTerm('the')).toBeNull();
    expect(processTerm('Databases')).toBe(processTerm('database'));
    expect(processTerm('running')).toBe('run');
  });

  it('maps irregular past forms to their base form before stemming', () => {
    expect(processTerm('went')).toBe(processTerm('go'));
    expect(processTerm('bought')).toBe(processTerm('buying'));
    expect(processTerm('chose')).toBe(processTerm('choose'));
    expect(processTerm('Thought')).toBe(processTerm('thinks'));
    expect(processTerm('was')).toBeNull();
    // Ambiguous forms keep their own meaning.
    expect(processTerm('ground')).toBe('ground');
    expect(processTerm('rose')).toBe('rose');
  });

  it('keeps emoji, one character of an unspaced script, and whole identifiers', () => {
    expect(processTerm('🚀')).toBe('🚀');
    expect(processTerm('猫')).toBe('猫');
    expect(processTerm('max_retries')).toEqual(['max_retries', 'max', 'retri']);
    expect(processTerm('Café')).toBe(processTerm('cafe'));
  });

  it('splits camelCase identifiers into parts as well', () => {
    expect(processTerm('getUserById')).toEqual(expect.arrayContaining(['getuserbyid', 'user']));
  });
});

describe('analyze', () => {
  it('analyses a question to its content words', () => {
    expect(analyze('Which database did we pick?')).toEqual(['databas', 'pick']);
  });
});

describe('planQuery', () => {
  it('expands coding synonyms and hints at decisions', () => {
    const plan = planQuery('which database did we pick');
    // "chose" is analysed as "choose", so the expansion appears once, as its stem.
    expect(plan.expansions).toEqual(expect.arrayContaining(['sqlite', 'postgr', processTerm('chose')]));
    expect(plan.typeHints[0]).toBe('decision');
  });

  it('adds time words to a question about when, and only then', () => {
    expect(planQuery('When did Anna adopt the puppy?').timeTerms).toEqual(expect.arrayContaining(['yesterdai', 'week', 'march']));
    expect(planQuery('what year did we move to Fly').timeTerms.length).toBeGreaterThan(0);
    expect(planQuery('Which puppy did Anna adopt?').timeTerms).toEqual([]);
    // Never a word the question already has.
    expect(planQuery('when did we ship last week').timeTerms).not.toContain('week');
  });

  it('does not expand when asked not to', () => {
    expect(planQuery('database', { expand: false }).expansions).toEqual([]);
    expect(planQuery('when did we pick a database', { expand: false }).timeTerms).toEqual([]);
  });
});

describe('IRREGULAR_BASE', () => {
  it('maps only past forms, never a base form to something else', () => {
    for (const [form, base] of IRREGULAR_BASE) {
      expect(form).not.toBe(base);
      expect(IRREGULAR_BASE.has(base), `${form} → ${base}`).toBe(false);
    }
  });
});
