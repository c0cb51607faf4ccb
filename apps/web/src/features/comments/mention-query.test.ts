import { describe, expect, it } from 'vitest';
import { addPick, completes, insertMention, mentionQueryAt, pickedIds } from './mention-query';

describe('mentionQueryAt', () => {
  it('finds the name being typed after an @ at the caret', () => {
    expect(mentionQueryAt('hi @zo', 6)).toEqual({ start: 3, end: 6, query: 'zo' });
    expect(mentionQueryAt('@Zoë M', 6)).toEqual({ start: 0, end: 6, query: 'Zoë M' });
    expect(mentionQueryAt('(@ann', 5)).toEqual({ start: 1, end: 5, query: 'ann' });
  });

  it('is null without letters after the @, in an email, across lines or far from it', () => {
    expect(mentionQueryAt('hi @', 4)).toBeNull();
    expect(mentionQueryAt('hi @ ', 5)).toBeNull();
    expect(mentionQueryAt('ann@example', 11)).toBeNull();
    expect(mentionQueryAt('@ann\nlee', 8)).toBeNull();
    expect(mentionQueryAt('@one two three four', 19)).toBeNull();
    expect(mentionQueryAt('@12', 3)).toBeNull();
    expect(mentionQueryAt('no at sign', 5)).toBeNull();
  });

  it('reads only up to the caret', () => {
    expect(mentionQueryAt('@ann lee', 4)).toEqual({ start: 0, end: 4, query: 'ann' });
  });
});

describe('completes', () => {
  const ann = { id: 6, firstname: 'Ann', lastname: 'Lee' };
  const zoe = { id: 5, firstname: 'Zoë', lastname: 'Müller' };

  it('fits a first, last or full name starting with what is typed, accents and case ignored', () => {
    for (const query of ['a', 'ANN', 'ann l', 'Ann Lee', 'Ann Lee ', 'lee'])
      expect(completes(ann, query)).toBe(true);
    for (const query of ['zoe', 'zoe m', 'MULLER']) expect(completes(zoe, query)).toBe(true);
  });

  it('does not fit text typed past the name, nor another name', () => {
    for (const query of ['Ann Lee said', 'Ann Leeds', 'Anna', 'ee'])
      expect(completes(ann, query)).toBe(false);
  });
});

describe('insertMention', () => {
  it('replaces the typed start with the full name and a space, the caret after it', () => {
    const at = { start: 3, end: 6, query: 'zo' };
    expect(insertMention('hi @zo', at, { firstname: 'Zoë', lastname: 'Müller' })).toEqual({
      text: 'hi @Zoë Müller ',
      caret: 15,
    });
  });

  it('keeps the text after the caret, using a space already there', () => {
    const at = { start: 0, end: 3, query: 'an' };
    expect(insertMention('@an please', at, { firstname: 'Ann', lastname: 'Lee' })).toEqual({
      text: '@Ann Lee please',
      caret: 9,
    });
    expect(insertMention('@an, ok', at, { firstname: 'Ann', lastname: 'Lee' })).toEqual({
      text: '@Ann Lee , ok',
      caret: 9,
    });
  });
});

describe('pickedIds', () => {
  const first = { id: 21, firstname: 'Sam', lastname: 'Twofold' };
  const second = { id: 22, firstname: 'Sam', lastname: 'Twofold' };
  const zoe = { id: 5, firstname: 'Zoë', lastname: 'Müller' };

  it('keeps the picks the text still names, newest first', () => {
    const picked = addPick(addPick(addPick([], zoe), first), second);
    expect(picked.map((p) => p.id)).toEqual([22, 21, 5]);
    expect(pickedIds('@Sam Twofold and @zoe muller', picked)).toEqual([22, 5]);
    expect(pickedIds('@Sam Twofold and @Sam Twofold', picked)).toEqual([22, 21]);
    expect(pickedIds('nobody now', picked)).toEqual([]);
    // Picked again: to the front, once.
    expect(addPick(picked, first).map((p) => p.id)).toEqual([21, 22, 5]);
  });
});
