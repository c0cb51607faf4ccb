import type { AppEvent } from '@sitelog/shared';
import { paths } from '@/lib/paths';

/** A piece of an activity's sentence; `strong` for the names a reader scans for. */
export interface SentencePart {
  text: string;
  strong?: boolean;
}

type Person = AppEvent['actor'];

const fullName = (person: Pick<Person, 'firstname' | 'lastname'>) =>
  `${person.firstname} ${person.lastname}`.trim();

/** The photo's name as the event kept it ("Untitled photo" for one without a name). */
export const photoName = (upload: NonNullable<AppEvent['upload']>) =>
  upload.name.trim() === '' ? 'Untitled photo' : upload.name;

/** Comment excerpts on one line: line breaks read as spaces. */
const quote = (excerpt: string | null) =>
  excerpt === null || excerpt.trim() === ''
    ? []
    : [{ text: `: “${excerpt.replace(/\s+/g, ' ').trim()}”` }];

/**
 * What happened, as a sentence in parts: "Aisha Khan added 12 photos to Riverside Block C",
 * "Ben Ray commented on Slab pour: “…”", "Ben Ray mentioned you: “…”", "Ann Lee made the report
 * “Week 47” in Riverside Block C". `viewerId` turns the
 * viewer's own name into "you".
 */
export function activitySentence(event: AppEvent, viewerId: number): SentencePart[] {
  const actor: SentencePart = {
    text: event.actor.active ? fullName(event.actor) : `${fullName(event.actor)} (deactivated)`,
    strong: true,
  };
  const project: SentencePart = { text: event.project.name, strong: true };
  const photo: SentencePart = {
    text: event.upload ? photoName(event.upload) : 'a photo',
    strong: event.upload !== null,
  };
  switch (event.kind) {
    case 'upload.added':
      return [
        actor,
        { text: event.count > 1 ? ` added ${event.count} photos to ` : ' added a photo to ' },
        project,
      ];
    case 'project.created':
      return [actor, { text: ' created ' }, project];
    case 'project.edited':
      return [actor, { text: ' edited ' }, project];
    case 'project.archived':
      return [actor, { text: ' archived ' }, project];
    case 'project.restored':
      return [actor, { text: ' restored ' }, project];
    case 'comment.added':
      return [actor, { text: ' commented on ' }, photo, ...quote(event.excerpt)];
    case 'mention': {
      const mentioned =
        event.mentioned === null || event.mentioned.id === viewerId
          ? { text: 'you' }
          : { text: fullName(event.mentioned), strong: true };
      return [actor, { text: ' mentioned ' }, mentioned, ...quote(event.excerpt)];
    }
    case 'report.created':
      // The report is null once deleted (its events go with it, so rarely seen).
      return event.report
        ? [
            actor,
            { text: ' made the report ' },
            { text: `“${event.report.title}”`, strong: true },
            { text: ' in ' },
            project,
          ]
        : [actor, { text: ' made a report in ' }, project];
  }
}

/**
 * Where a comment or a mention was written, for the line under the sentence (which names the
 * project for everything else): "In Riverside Block C", "On Slab pour in Riverside Block C".
 */
export function activityContext(event: AppEvent): string | null {
  if (event.kind === 'comment.added') return `In ${event.project.name}`;
  if (event.kind === 'mention')
    return event.upload
      ? `On ${photoName(event.upload)} in ${event.project.name}`
      : `In ${event.project.name}`;
  return null;
}

/** The sentence as plain text (an accessible name, a test's expectation). */
export const sentenceText = (parts: SentencePart[]) => parts.map((part) => part.text).join('');

/** Whether the photo the activity is about has been deleted since. */
export const photoDeleted = (event: AppEvent) => event.upload !== null && event.upload.id === null;

/**
 * Where opening the activity leads: its report's page for a new report, its photo (at its
 * comments for a comment or a mention), or the project for project changes, a group of photos,
 * a photo deleted since and a report deleted since.
 */
export function activityTarget(event: AppEvent): string {
  if (event.kind === 'report.created')
    return event.report ? paths.report(event.report.id) : paths.project(event.project.id);
  const id = event.upload?.id ?? null;
  if (id === null || (event.kind === 'upload.added' && event.count > 1))
    return paths.project(event.project.id);
  const atComments = event.kind === 'comment.added' || event.kind === 'mention';
  return atComments ? `${paths.upload(id)}#comments` : paths.upload(id);
}
