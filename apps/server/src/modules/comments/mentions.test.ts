// The mention rule (`findMentions`, shared with the web) and who it names among the members:
// accents and case, the longest name, where an `@` counts, what may follow a name, and that
// unknown names and deactivated members stay plain text.
import { findMentions, foldName, type MentionCandidate } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.js';
import { createTestContext, type TestContext } from '../../../test/helpers.js';
import { findMentionedMembers, mentionedIds } from './mentions.js';

const zoe = { id: 1, firstname: 'Zoë', lastname: 'Müller' };
const ann = { id: 2, firstname: 'Ann', lastname: 'Lee' };
const annLeeds = { id: 3, firstname: 'Ann', lastname: 'Leeds' };
const jose = { id: 4, firstname: 'José', lastname: 'Ñúñez' };
const members: MentionCandidate[] = [zoe, ann, annLeeds, jose];

/** What each mention covers in the text, and whom it names. */
const spans = (text: string, candidates = members) =>
  findMentions(text, candidates).map((s) => [text.slice(s.start, s.end), s.person.id]);

describe('findMentions', () => {
  it('matches a name whatever its accents and case', () => {
    expect(spans('@zoe muller can you check?')).toEqual([['@zoe muller', 1]]);
    expect(spans('@ZOË MÜLLER')).toEqual([['@ZOË MÜLLER', 1]]);
    expect(spans('thanks @jose nunez')).toEqual([['@jose nunez', 4]]);
    // Accents typed as combining marks (NFD) are the same name, and the span keeps them.
    const decomposed = '@Zoe\u0308 Mu\u0308ller!';
    expect(spans(decomposed)).toEqual([['@Zoe\u0308 Mu\u0308ller', 1]]);
  });

  it('takes the longest name the text goes on with', () => {
    expect(spans('@Ann Leeds please')).toEqual([['@Ann Leeds', 3]]);
    expect(spans('@Ann Lee please')).toEqual([['@Ann Lee', 2]]);
    expect(spans('@Ann Lee and @Ann Leeds')).toEqual([
      ['@Ann Lee', 2],
      ['@Ann Leeds', 3],
    ]);
  });

  it('needs the whole name, ending at a non-letter', () => {
    // "Ann Leed" is neither member; "Ann Leesburg" does not end after a name.
    expect(spans('@Ann Leed')).toEqual([]);
    expect(spans('@Ann Leesburg')).toEqual([]);
    expect(spans('@Ann Lee2')).toEqual([]);
    expect(spans('@Ann')).toEqual([]);
    expect(spans('@Ann  Lee')).toEqual([]);
  });

  it('ends a name at punctuation, a line break or the end of the text', () => {
    for (const after of [',', '.', '!', '?', ':', ')', "'s", '\n', ' ', '—', ''])
      expect(spans(`ask @Ann Lee${after}`), JSON.stringify(after)).toEqual([['@Ann Lee', 2]]);
    expect(spans('(@Ann Lee)')).toEqual([['@Ann Lee', 2]]);
  });

  it('leaves unknown names as plain text', () => {
    expect(spans('@Bob Builder fixed it')).toEqual([]);
    expect(spans('@ alone, @@Ann Lee, @')).toEqual([['@Ann Lee', 2]]);
  });

  it('does not read the @ of an email address, or one after a letter or digit', () => {
    expect(spans('mail ann@lee.com or zoë.müller@example.com')).toEqual([]);
    expect(spans('x@Ann Lee 1@Ann Lee é@Ann Lee')).toEqual([]);
    // …but after punctuation or at the start it is a mention.
    expect(spans('@Ann Lee/@Zoë Müller')).toEqual([
      ['@Ann Lee', 2],
      ['@Zoë Müller', 1],
    ]);
  });

  it('keeps a name with several words and odd spacing in the member list', () => {
    const mary = { id: 9, firstname: ' Mary  Ann ', lastname: "O'Brien" };
    expect(spans("cc @mary ann o'brien.", [mary])).toEqual([["@mary ann o'brien", 9]]);
    expect(foldName(' Zoë   Müller ')).toBe('zoe muller');
  });

  it('never reads HTML or markup as anything but text', () => {
    expect(spans('<b>@Ann Lee</b>')).toEqual([['@Ann Lee', 2]]);
    expect(spans('@<script>Ann Lee')).toEqual([]);
  });

  it('answers each member once, in the order the text first names them', () => {
    expect(mentionedIds('@Ann Lee, @zoe muller and again @ann lee', members)).toEqual([2, 1]);
    expect(mentionedIds('no mentions here', members)).toEqual([]);
  });
});

describe('a full name two members share', () => {
  const john = { id: 11, firstname: 'John', lastname: 'Smith' };
  const jon = { id: 12, firstname: 'Jöhn', lastname: 'smith' };
  const johnny = { id: 13, firstname: 'John', lastname: 'Smithson' };
  const team: MentionCandidate[] = [john, jon, johnny, ann];

  it('names nobody without a pick', () => {
    expect(mentionedIds('@John Smith please look', team)).toEqual([]);
    expect(mentionedIds('@John Smith please look', team, [99, ann.id])).toEqual([]);
  });

  it('names the picked one, at every spot the name is written', () => {
    expect(mentionedIds('@John Smith please look', team, [jon.id])).toEqual([jon.id]);
    expect(mentionedIds('@John Smith please look', team, [john.id])).toEqual([john.id]);
    expect(mentionedIds('@John Smith, again @john smith', team, [jon.id])).toEqual([jon.id]);
  });

  it('names both when both were picked and the name is written twice, newest pick first', () => {
    expect(mentionedIds('@John Smith and @John Smith', team, [jon.id, john.id])).toEqual([
      jon.id,
      john.id,
    ]);
    // Written once: the newest pick.
    expect(mentionedIds('@John Smith', team, [john.id, jon.id])).toEqual([john.id]);
  });

  it('leaves names only one member has as they were, whatever is picked', () => {
    expect(mentionedIds('@John Smithson and @Ann Lee', team, [john.id, jon.id])).toEqual([
      johnny.id,
      ann.id,
    ]);
    expect(mentionedIds('@John Smithson and @Ann Lee', team)).toEqual([johnny.id, ann.id]);
  });

  it('draws a comment that names both (no picks: the named in turn)', () => {
    expect(spans('@John Smith and @John Smith', [john, jon])).toEqual([
      ['@John Smith', 11],
      ['@John Smith', 12],
    ]);
  });
});

describe('findMentionedMembers (against the workspace)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('names active members only: a deactivated member stays plain text', async () => {
    const active = await buildUser(ctx, { firstname: 'Zoë', lastname: 'Müller' });
    await buildUser(ctx, { firstname: 'Dora', lastname: 'Gone', isActive: false });
    expect(await findMentionedMembers(ctx.db, '@zoe muller and @Dora Gone')).toEqual([active.id]);
    expect(await findMentionedMembers(ctx.db, '@Nobody Known')).toEqual([]);
  });

  it('settles a shared name by the pick, among active members only', async () => {
    const first = await buildUser(ctx, { firstname: 'Twin', lastname: 'Namesake' });
    const second = await buildUser(ctx, { firstname: 'Twin', lastname: 'Namesake' });
    const gone = await buildUser(ctx, { firstname: 'Solo', lastname: 'Namesake' });
    await buildUser(ctx, { firstname: 'Solo', lastname: 'Namesake', isActive: false });
    expect(await findMentionedMembers(ctx.db, '@Twin Namesake')).toEqual([]);
    expect(await findMentionedMembers(ctx.db, '@Twin Namesake', [second.id])).toEqual([second.id]);
    expect(await findMentionedMembers(ctx.db, '@Twin Namesake', [first.id])).toEqual([first.id]);
    // A deactivated namesake does not make a name ambiguous.
    expect(await findMentionedMembers(ctx.db, '@Solo Namesake')).toEqual([gone.id]);
  });
});
