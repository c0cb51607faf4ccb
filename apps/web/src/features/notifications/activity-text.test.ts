import { describe, expect, it } from 'vitest';
import {
  activityContext,
  activitySentence,
  activityTarget,
  photoDeleted,
  sentenceText,
} from './activity-text';
import { aisha, ben, makeEvent } from './test/make-activity';

const viewer = 9;
const text = (overrides: Parameters<typeof makeEvent>[0]) =>
  sentenceText(activitySentence(makeEvent(overrides), viewer));

describe('activity sentences', () => {
  it('says who added how many photos to which project', () => {
    expect(text({ count: 12 })).toBe('Aisha Khan added 12 photos to Riverside Block C');
    expect(text({ count: 1 })).toBe('Aisha Khan added a photo to Riverside Block C');
  });

  it('says what happened to a project', () => {
    expect(text({ kind: 'project.created', upload: null })).toBe(
      'Aisha Khan created Riverside Block C',
    );
    expect(text({ kind: 'project.edited', upload: null })).toBe(
      'Aisha Khan edited Riverside Block C',
    );
    expect(text({ kind: 'project.archived', upload: null })).toBe(
      'Aisha Khan archived Riverside Block C',
    );
    expect(text({ kind: 'project.restored', upload: null })).toBe(
      'Aisha Khan restored Riverside Block C',
    );
  });

  it('names a new report and its project, and says so plainly once the report is deleted', () => {
    const made = { kind: 'report.created' as const, upload: null };
    expect(text({ ...made, report: { id: 8, title: 'Week 47 <i>site</i>' } })).toBe(
      'Aisha Khan made the report “Week 47 <i>site</i>” in Riverside Block C',
    );
    expect(
      activitySentence(makeEvent({ ...made, report: { id: 8, title: 'Week 47' } }), viewer)
        .filter((part) => part.strong)
        .map((part) => part.text),
    ).toEqual(['Aisha Khan', '“Week 47”', 'Riverside Block C']);
    expect(text({ ...made, report: null })).toBe('Aisha Khan made a report in Riverside Block C');
  });

  it('quotes a comment on one line, on the photo it was written on', () => {
    expect(
      text({ kind: 'comment.added', actor: ben, excerpt: 'Crack at left.\nWho fixes it?' }),
    ).toBe('Ben Ray commented on Slab pour: “Crack at left. Who fixes it?”');
    expect(
      text({
        kind: 'comment.added',
        actor: ben,
        excerpt: 'x',
        upload: { id: 1, name: ' ', previewLink: null },
      }),
    ).toBe('Ben Ray commented on Untitled photo: “x”');
  });

  it('says "you" to the member mentioned, and their name to everyone else', () => {
    const mention = { kind: 'mention' as const, actor: ben, excerpt: '@Aisha Khan look' };
    expect(text({ ...mention, mentioned: { ...aisha, id: viewer } })).toBe(
      'Ben Ray mentioned you: “@Aisha Khan look”',
    );
    expect(text({ ...mention, mentioned: aisha })).toBe(
      'Ben Ray mentioned Aisha Khan: “@Aisha Khan look”',
    );
  });

  it('marks a deactivated actor, and keeps markup as text', () => {
    expect(
      text({ actor: { ...ben, active: false }, project: { id: 1, name: '<b>Yard</b>' } }),
    ).toBe('Ben Ray (deactivated) added a photo to <b>Yard</b>');
  });

  it('puts the names in bold parts', () => {
    const parts = activitySentence(makeEvent({ count: 3 }), viewer);
    expect(parts.filter((part) => part.strong).map((part) => part.text)).toEqual([
      'Aisha Khan',
      'Riverside Block C',
    ]);
  });
});

describe('where a comment was written', () => {
  it('names the project of a comment, and the photo and project of a mention', () => {
    expect(activityContext(makeEvent({ kind: 'comment.added' }))).toBe('In Riverside Block C');
    expect(activityContext(makeEvent({ kind: 'mention' }))).toBe(
      'On Slab pour in Riverside Block C',
    );
    expect(activityContext(makeEvent())).toBeNull();
    expect(activityContext(makeEvent({ kind: 'project.archived', upload: null }))).toBeNull();
  });
});

describe('where an activity leads', () => {
  it('opens the photo, at its comments for a comment or a mention', () => {
    expect(activityTarget(makeEvent())).toBe('/upload/55');
    expect(activityTarget(makeEvent({ kind: 'comment.added' }))).toBe('/upload/55#comments');
    expect(activityTarget(makeEvent({ kind: 'mention' }))).toBe('/upload/55#comments');
  });

  it("opens a new report's page, or its project once the report is deleted", () => {
    const made = { kind: 'report.created' as const, upload: null };
    expect(activityTarget(makeEvent({ ...made, report: { id: 8, title: 'Week 47' } }))).toBe(
      '/report/8',
    );
    expect(activityTarget(makeEvent({ ...made, report: null }))).toBe('/project/12');
  });

  it('opens the project for project changes, a group of photos and a deleted photo', () => {
    expect(activityTarget(makeEvent({ kind: 'project.edited', upload: null }))).toBe('/project/12');
    expect(activityTarget(makeEvent({ count: 4 }))).toBe('/project/12');
    const deleted = makeEvent({
      kind: 'comment.added',
      upload: { id: null, name: 'Slab pour', previewLink: null },
    });
    expect(activityTarget(deleted)).toBe('/project/12');
    expect(photoDeleted(deleted)).toBe(true);
    expect(photoDeleted(makeEvent())).toBe(false);
    expect(photoDeleted(makeEvent({ upload: null }))).toBe(false);
  });
});
