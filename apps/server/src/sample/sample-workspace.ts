import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commentBodySchema, createReportRequestSchema, type ReportType } from '@sitelog/shared';
import type { Config } from '../config.js';
import type { ImageProcessor } from '../media/image-processor.js';
import { createLimiter } from '../media/limiter.js';
import type { Storage } from '../media/storage/index.js';
import { removeFile, TEMP_UPLOAD_SUFFIX } from '../media/temp-files.js';
import { isUniqueViolation, nowIso, writeTransaction, type Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { rememberSampleAccount } from '../modules/auth/sample-account.js';
import {
  addProject,
  markProject,
  setProjectArchived,
} from '../modules/projects/projects.service.js';
import { createComment } from '../modules/comments/comments.service.js';
import { insertNewReport } from '../modules/reports/reports.service.js';
import { storeUpload } from '../modules/uploads/uploads.service.js';
import { createAccount, hasAccounts } from '../modules/users/users.service.js';
import { setTeamName } from '../modules/workspace/workspace.service.js';
import { renderSamplePhoto, type SampleScene } from './sample-photos.js';

interface SeedDeps {
  config: Config;
  db: Database;
  storage: Storage;
  images: ImageProcessor;
}

/** The sample company: the workspace's team name, on the cover of its reports. */
export const SAMPLE_COMPANY = 'Whitfield & Rossi Construction';

const people = [
  { firstname: 'Dana', lastname: 'Whitfield', email: 'dana.whitfield@example.com', isAdmin: true },
  { firstname: 'Marco', lastname: 'Rossi', email: 'marco.rossi@example.com', isAdmin: false },
  { firstname: 'Aisha', lastname: 'Okafor', email: 'aisha.okafor@example.com', isAdmin: false },
  { firstname: 'Tomasz', lastname: 'Nowak', email: 'tomasz.nowak@example.com', isAdmin: false },
  { firstname: 'Lena', lastname: 'Fischer', email: 'lena.fischer@example.com', isAdmin: false },
] as const;

const DAY = 24 * 3600_000;

/** Sample projects: creator is an index into `people`; age in days sets their dates. */
const projects = [
  {
    name: 'Riverside Apartments, Block C',
    location: 'Hamburg, Germany',
    latitude: 53.5511,
    longitude: 9.9937,
    description: 'Six-storey residential block: shell works, facade insulation and roofing.',
    creator: 1,
    ageDays: 40,
  },
  {
    name: 'Central Station Canopy Renewal',
    location: 'Munich, Bavaria, Germany',
    latitude: 48.1374,
    longitude: 11.5755,
    description: 'Replacing the glass canopy over platforms 11–14 during night possessions.',
    creator: 2,
    ageDays: 33,
  },
  {
    name: 'Harbourfront Office Fit-out',
    location: 'Rotterdam, South Holland, Netherlands',
    latitude: 51.9225,
    longitude: 4.4792,
    description: 'Floors 3–5: partitions, ceilings, MEP first fix and finishes.',
    creator: 3,
    ageDays: 26,
  },
  {
    name: 'Elementary School Extension',
    location: 'Vienna, Austria',
    latitude: 48.2085,
    longitude: 16.3721,
    description: 'Two-storey timber-frame extension with four classrooms and a gym.',
    creator: 1,
    ageDays: 19,
  },
  {
    name: 'Warehouse Roof Repair',
    location: 'Lyon, Auvergne-Rhône-Alpes, France',
    latitude: 45.764,
    longitude: 4.8357,
    description: '',
    creator: 4,
    ageDays: 12,
  },
  {
    name: 'Bridge Deck Waterproofing',
    location: 'Zurich, Switzerland',
    latitude: 47.3769,
    longitude: 8.5417,
    description: 'Deck membrane, expansion joints and new asphalt on the B4 overpass.',
    creator: 0,
    ageDays: 6,
  },
  {
    name: 'Old Town Car Park Resurfacing',
    location: 'Ghent, East Flanders, Belgium',
    latitude: 51.0543,
    longitude: 3.7174,
    description: 'Levels 1–3 resurfaced and re-marked. Handed over; archived after the snag list.',
    creator: 3,
    ageDays: 70,
  },
] as const;

/** The finished job, archived by the admin once its photos are in (`/projects/archived`). */
const archived = { project: 6, by: 0, daysAgo: 14 } as const;

/** Who bookmarks and follows what: [person index, project index]. */
const bookmarks = [
  [0, 0],
  [0, 1],
  [0, 5],
  [1, 1],
  [1, 2],
  [2, 0],
  [3, 3],
  [4, 4],
  [3, 6],
] as const;
const follows = [
  [0, 2],
  [0, 3],
  [1, 0],
  [2, 5],
  [3, 1],
  [4, 0],
] as const;

/** Photo colour per project, so one project's photos look alike. */
const projectHues = [205, 190, 220, 35, 15, 260, 150] as const;

/**
 * Sample photos: project and uploader are indexes into `projects` and `people` (mostly the
 * project's creator and members who bookmark or follow it); `daysAgo` spreads them over the
 * weeks since each project started. Most have tags as a crew would set them (trade, area,
 * issue), normalised, so the tag filter and suggestions have something to show.
 */
const photos: {
  project: number;
  uploader: number;
  daysAgo: number;
  name: string;
  description: string;
  scene: SampleScene;
  tags?: string[];
}[] = [
  {
    project: 0,
    uploader: 1,
    daysAgo: 38,
    name: 'Ground floor slab poured',
    description: 'Slab C1–C4 poured and covered for curing; test cubes taken.',
    scene: 'frame',
    tags: ['concrete', 'ground floor', 'structure'],
  },
  {
    project: 0,
    uploader: 2,
    daysAgo: 24,
    name: 'Tower crane up on the north side',
    description: 'Crane inspected and signed off. Load chart posted at the base.',
    scene: 'crane',
    tags: ['crane', 'safety'],
  },
  {
    project: 0,
    uploader: 4,
    daysAgo: 9,
    name: 'Facade insulation, west elevation',
    description: 'Mineral wool boards fixed up to level 4; mesh and render next week.',
    scene: 'facade',
    tags: ['facade', 'insulation', 'level 4'],
  },
  {
    project: 1,
    uploader: 2,
    daysAgo: 31,
    name: 'Old glazing removed, platform 12',
    description: 'All panels over platform 12 are out; debris netting in place.',
    scene: 'roof',
    tags: ['glazing', 'demolition', 'platform 12'],
  },
  {
    project: 1,
    uploader: 3,
    daysAgo: 20,
    name: 'Replacement trusses set out',
    description: 'Trusses 4–9 lifted and bolted during the Sunday possession.',
    scene: 'frame',
    tags: ['steel', 'structure'],
  },
  {
    project: 1,
    uploader: 0,
    daysAgo: 4,
    name: 'Night lift of the glass panels',
    description: 'Mobile crane on platform 14, panels lifted between 01:00 and 04:30.',
    scene: 'crane',
    tags: ['glazing', 'crane', 'safety'],
  },
  {
    project: 2,
    uploader: 3,
    daysAgo: 25,
    name: 'Partition layout marked, floor 3',
    description: 'Layout checked against revision C of the plans.',
    scene: 'interior',
    tags: ['drywall', 'level 3'],
  },
  {
    project: 2,
    uploader: 1,
    daysAgo: 15,
    name: 'Ceiling grid, floor 4',
    description: 'Grid complete in the east wing; tiles go in after MEP sign-off.',
    scene: 'interior',
    tags: ['ceilings', 'level 4'],
  },
  {
    project: 2,
    uploader: 3,
    daysAgo: 2,
    name: 'MEP first fix ready for inspection',
    description: 'Cable trays and ducts in; inspection booked for Thursday.',
    scene: 'interior',
    tags: ['electrical', 'plumbing', 'inspection', 'level 3'],
  },
  {
    project: 3,
    uploader: 1,
    daysAgo: 17,
    name: 'Timber frame walls delivered',
    description: 'Wall panels W1–W12 stored under cover on site.',
    scene: 'frame',
    tags: ['timber', 'delivery'],
  },
  {
    project: 3,
    uploader: 3,
    daysAgo: 10,
    name: 'Gym roof trusses in place',
    description: 'Bracing to be completed before the roofers start.',
    scene: 'roof',
    tags: ['roofing', 'timber', 'structure'],
  },
  {
    project: 3,
    uploader: 1,
    daysAgo: 1,
    name: 'Classroom windows fitted',
    description: 'Ground floor windows in; sealing tomorrow.',
    scene: 'facade',
  },
  {
    project: 4,
    uploader: 4,
    daysAgo: 11,
    name: 'Damaged roof sheets, bay 3',
    description: 'Six corroded sheets and two purlins to replace.',
    scene: 'roof',
    tags: ['roofing', 'defect'],
  },
  {
    project: 4,
    uploader: 4,
    daysAgo: 7,
    name: 'New purlins fixed',
    description: '',
    scene: 'roof',
  },
  {
    project: 4,
    uploader: 2,
    daysAgo: 3,
    name: 'Edge protection installed',
    description: 'Guard rails along the north edge before the walkway goes in.',
    scene: 'roof',
    tags: ['safety', 'roofing'],
  },
  {
    project: 5,
    uploader: 0,
    daysAgo: 5,
    name: 'Old asphalt milled off',
    description: 'Deck exposed over spans 1–3; no spalling found.',
    scene: 'bridge',
    tags: ['asphalt', 'demolition'],
  },
  {
    project: 5,
    uploader: 2,
    daysAgo: 3,
    name: 'Membrane primer applied',
    description: 'Primer on spans 1–2, membrane tomorrow if dry.',
    scene: 'bridge',
  },
  {
    project: 5,
    uploader: 0,
    daysAgo: 0.2,
    name: 'Expansion joint, east abutment',
    description: 'Old joint removed; recess cleaned for the new one.',
    scene: 'bridge',
    tags: ['defect', 'concrete'],
  },
  {
    project: 6,
    uploader: 3,
    daysAgo: 66,
    name: 'Level 2 milled back to the base course',
    description: 'Two potholes by ramp B cut out square; base course sound.',
    scene: 'bridge',
    tags: ['asphalt', 'defect', 'level 2'],
  },
  {
    project: 6,
    uploader: 1,
    daysAgo: 41,
    name: 'New wearing course, level 3',
    description: 'Laid overnight; joints sealed at the ramp.',
    scene: 'bridge',
    tags: ['asphalt', 'level 3'],
  },
  {
    project: 6,
    uploader: 3,
    daysAgo: 22,
    name: 'Bay markings done, handover walk',
    description: 'Snag list closed with the client; keys returned.',
    scene: 'interior',
  },
];

/**
 * Sample comments, as a crew talks under its photos: `photo` names one of `photos`, `author` is
 * an index into `people`, `hoursAfter` dates it after the photo (all still in the past). They go
 * through the comments service, so counts, mentions, events and notifications are made as for
 * anyone's: the admin is named in two threads and has comments on photos of theirs and of a
 * project they follow, so the bell shows unread notifications at the first sign-in.
 */
const comments: { photo: string; author: number; hoursAfter: number; body: string }[] = [
  {
    photo: 'Bay markings done, handover walk',
    author: 0,
    hoursAfter: 20,
    body: 'Client signed the handover certificate this morning. Thanks, everyone: archiving the project once the last invoice is out.',
  },
  {
    photo: 'Damaged roof sheets, bay 3',
    author: 2,
    hoursAfter: 20,
    body: 'Defect: two more sheets corroded at the ridge in bay 4.\nMarked in red paint; the order needs 8 sheets, not 6.',
  },
  {
    photo: 'Damaged roof sheets, bay 3',
    author: 4,
    hoursAfter: 23,
    body: '@Aisha Okafor thanks, order changed to 8 sheets. Delivery Monday at 7:00.',
  },
  {
    photo: 'Facade insulation, west elevation',
    author: 1,
    hoursAfter: 3,
    body: 'Fixings look good. Check the reveal of the second window from the left on level 3: there is a gap behind the board, fill it before the mesh goes on.',
  },
  {
    photo: 'Facade insulation, west elevation',
    author: 4,
    hoursAfter: 6,
    body: 'Filled with a cut strip and foam. @Marco Rossi ready for you to check.',
  },
  {
    photo: 'Night lift of the glass panels',
    author: 3,
    hoursAfter: 8,
    body: 'Panels 14-3 to 14-6 still need their silicone seal; we finish them in the next possession.',
  },
  {
    photo: 'MEP first fix ready for inspection',
    author: 1,
    hoursAfter: 3,
    body: '@Dana Whitfield the tray supports here are at 1.5 m centres, the drawing says 1.2 m. Can you confirm before the inspection?',
  },
  {
    photo: 'MEP first fix ready for inspection',
    author: 0,
    hoursAfter: 5,
    body: "Approved, go ahead. 1.5 m is within the tray maker's span table for this size; I noted it for the inspector.",
  },
  {
    photo: 'MEP first fix ready for inspection',
    author: 3,
    hoursAfter: 6,
    body: 'Thanks. Inspection stays on Thursday at 9:00.',
  },
  {
    photo: 'Expansion joint, east abutment',
    author: 2,
    hoursAfter: 1.5,
    body: '@Dana Whitfield can you confirm the rebar spacing here? I measure 200 mm at the joint recess; drawing B4-S-112 shows 150 mm.',
  },
];

/**
 * Sample reports (issue 16), of open projects' photos by name, captioned with each photo's
 * description as the report creator prefills it. They are queued when the workspace is made; the
 * app's report queue makes their PDFs once it starts (the first start's own queue, or its poll).
 * The daily report is by a member on the admin's project, so the admin is told of it.
 */
const reports: {
  project: number;
  author: number;
  type: ReportType;
  title: string;
  intro: string;
  layout: 1 | 2 | 4;
  timeZone: string;
  photos: string[];
}[] = [
  {
    project: 5,
    author: 2,
    type: 'daily',
    title: 'Site diary, B4 overpass deck',
    intro:
      'Old asphalt is off spans 1–3 and the deck is sound. Primer is on spans 1–2; the membrane follows once it is dry. The east abutment’s expansion joint is out and its recess cleaned.',
    layout: 2,
    timeZone: 'Europe/Zurich',
    photos: ['Old asphalt milled off', 'Membrane primer applied', 'Expansion joint, east abutment'],
  },
  {
    project: 4,
    author: 4,
    type: 'defects',
    title: 'Roof defects, bay 3',
    intro:
      'Corroded roof sheets and purlins found in bay 3, and the repairs made, for the owner’s insurer.',
    layout: 1,
    timeZone: 'Europe/Paris',
    photos: ['Damaged roof sheets, bay 3', 'New purlins fixed', 'Edge protection installed'],
  },
];

type TimedPhoto = (typeof photos)[number] & { variant: number; at: Date };

/** Draws one sample photo and sends it through the upload pipeline; answers the upload's id. */
async function storeSamplePhoto(
  deps: SeedDeps,
  photo: TimedPhoto,
  userIds: number[],
  projectIds: number[],
): Promise<number> {
  const project = projects[photo.project];
  const projectId = projectIds[photo.project];
  const creatorId = userIds[photo.uploader];
  if (!project || projectId === undefined || creatorId === undefined)
    throw new Error('sample photo without project or uploader');
  const jpeg = await renderSamplePhoto({
    scene: photo.scene,
    title: project.name,
    caption: photo.name,
    hue: projectHues[photo.project] ?? 200,
    variant: photo.variant,
    capturedAt: new Date(photo.at.getTime() - 4 * 60_000),
    // A few metres around the project's position.
    latitude: project.latitude + ((photo.daysAgo % 7) - 3) * 0.0002,
    longitude: project.longitude + ((photo.daysAgo % 5) - 2) * 0.0003,
  });
  const filePath = path.join(
    deps.config.uploads.tempDir,
    `sample-${randomBytes(8).toString('hex')}${TEMP_UPLOAD_SUFFIX}`,
  );
  try {
    await writeFile(filePath, jpeg, { mode: 0o600 });
    return await storeUpload(deps, {
      filePath,
      bytes: jpeg.length,
      name: photo.name,
      description: photo.description,
      projectId,
      creatorId,
      createdAt: photo.at.toISOString(),
      tags: photo.tags,
    });
  } finally {
    await removeFile(filePath);
  }
}

/**
 * Draws each sample photo and sends it through the upload pipeline (preview, formatted image,
 * EXIF, storage, counts), two at a time, and writes the comments through the comments service,
 * each at its time. Each photo dates its project, so projects end up dated by their newest photo.
 * Everything is written in the order of its time (photos between two comments still two at a
 * time): the timelines and notifications list by id, so a comment written after all the photos
 * would show above newer ones.
 */
async function seedSampleActivity(
  deps: SeedDeps,
  userIds: number[],
  projectIds: number[],
): Promise<{ photos: number; comments: number; uploads: Map<string, SampleUpload> }> {
  const now = Date.now();
  const limiter = createLimiter(Math.max(1, deps.config.uploads.concurrency));
  await mkdir(deps.config.uploads.tempDir, { recursive: true });
  const timedPhotos: TimedPhoto[] = photos.map((photo, i) => ({
    ...photo,
    variant: i,
    at: new Date(now - photo.daysAgo * DAY - (i % 5) * 2_220_000),
  }));
  const timeline = [
    ...timedPhotos.map((photo) => ({ at: photo.at, photo, comment: null })),
    ...comments.map((comment) => {
      const photo = timedPhotos.find((p) => p.name === comment.photo);
      if (!photo) throw new Error(`sample comment on no photo: ${comment.photo}`);
      const at = new Date(photo.at.getTime() + comment.hoursAfter * 3600_000);
      return { at, photo, comment };
    }),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());

  const uploadIds = new Map<TimedPhoto, number>();
  let batch: TimedPhoto[] = [];
  const storeBatch = async () => {
    await Promise.all(
      batch.map((photo) =>
        limiter.run(async () => {
          uploadIds.set(photo, await storeSamplePhoto(deps, photo, userIds, projectIds));
        }),
      ),
    );
    batch = [];
  };
  for (const { at, photo, comment } of timeline) {
    if (!comment) {
      batch.push(photo);
      continue;
    }
    // The photos dated before the comment are stored first (its own among them).
    await storeBatch();
    const uploadId = uploadIds.get(photo);
    const authorId = userIds[comment.author];
    if (uploadId === undefined || authorId === undefined)
      throw new Error('sample comment without photo or author');
    await createComment(deps.db, {
      uploadId,
      authorId,
      body: commentBodySchema.parse(comment.body),
      at: at.toISOString(),
    });
  }
  await storeBatch();
  const uploads = new Map<string, SampleUpload>();
  for (const [photo, id] of uploadIds) uploads.set(photo.name, { id, photo });
  return { photos: timedPhotos.length, comments: comments.length, uploads };
}

/** A stored sample photo: its upload's id and what it was made from. */
interface SampleUpload {
  id: number;
  photo: TimedPhoto;
}

/** `at`'s day (YYYY-MM-DD) in `timeZone`. */
function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * Queues the sample reports through the reports service (the cover names the workspace's team,
 * the sample company), each covering the days of its photos in its project's zone. Their PDFs
 * are made by the report queue, off the start-up path. Answers how many were queued.
 */
async function seedSampleReports(
  deps: SeedDeps,
  userIds: number[],
  projectIds: number[],
  uploads: Map<string, SampleUpload>,
): Promise<number> {
  for (const report of reports) {
    const projectId = projectIds[report.project];
    const authorId = userIds[report.author];
    const picked = report.photos.map((name) => uploads.get(name));
    if (projectId === undefined || authorId === undefined)
      throw new Error('sample report without project or author');
    const days = picked.map((upload) => {
      if (!upload) throw new Error(`sample report of a photo never stored: ${report.title}`);
      return dayIn(upload.photo.at, report.timeZone);
    });
    const input = createReportRequestSchema.parse({
      projectId,
      type: report.type,
      title: report.title,
      intro: report.intro,
      from: days.reduce((a, b) => (a < b ? a : b)),
      to: days.reduce((a, b) => (a > b ? a : b)),
      layout: report.layout,
      timeZone: report.timeZone,
      photos: picked.map((upload) => ({
        uploadId: upload!.id,
        caption: upload!.photo.description,
      })),
    });
    await insertNewReport(deps.db, input, authorId);
  }
  return reports.length;
}

/** A readable random password such as `site-k3vq-9xmt-2hpa`. */
function samplePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `site-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** Another process seeded first; this one leaves the workspace alone. */
class SeedRaceLost extends Error {}

/**
 * Creates the sample company on an empty database: an admin and a few members sharing one
 * random password (the login page prefills it while the admin has not changed it; once the admin
 * changes theirs, the members get a random one nobody knows: retireSampleAccount),
 * construction projects in real cities with bookmarks and follows, photos on every project with
 * a few comment threads, and one finished project archived (after its photos and comments: an
 * archived project takes none). The follows commit before the photos, so uploads to a followed
 * project notify as they would later. The company's name is the workspace's team name; two
 * sample reports are queued for their PDFs. Returns the admin's email and the photo, comment and
 * report counts, or null when the database already had users.
 */
export async function seedSampleWorkspace(
  deps: SeedDeps,
): Promise<{ email: string; photos: number; comments: number; reports: number } | null> {
  if (await hasAccounts(deps.db)) return null;
  const password = samplePassword();
  const passwordHash = await hashPassword(password);
  // People, projects, marks and the remembered password commit together: a start that is
  // killed half-way leaves an empty database (and the next start seeds again), never users
  // whose password nobody knows. Another instance seeding at the same time loses the race on
  // the unique email and skips. Photos come after, outside the transaction.
  let seeded: { userIds: number[]; projectIds: number[] };
  try {
    seeded = await writeTransaction(deps.db, async (trx) => {
      if (await hasAccounts(trx)) throw new SeedRaceLost();
      const now = nowIso();
      const userIds: number[] = [];
      for (const person of people) {
        userIds.push(
          await createAccount(
            trx,
            {
              email: person.email,
              firstname: person.firstname,
              lastname: person.lastname,
              isAdmin: person.isAdmin,
            },
            { passwordHash },
          ),
        );
      }
      const projectIds: number[] = [];
      for (const project of projects) {
        const at = new Date(Date.now() - project.ageDays * DAY).toISOString();
        const creatorId = userIds[project.creator];
        if (creatorId === undefined) throw new Error('sample project without creator');
        projectIds.push(
          await addProject(
            trx,
            {
              name: project.name,
              location: project.location,
              latitude: project.latitude,
              longitude: project.longitude,
              description: project.description,
            },
            creatorId,
            at,
          ),
        );
      }
      for (const [mark, pairs] of [
        ['favor', bookmarks],
        ['follow', follows],
      ] as const) {
        for (const [person, project] of pairs) {
          const userId = userIds[person];
          const projectId = projectIds[project];
          if (userId !== undefined && projectId !== undefined)
            await markProject(trx, { userId, projectId, mark, at: now });
        }
      }

      await setTeamName(trx, SAMPLE_COMPANY);
      const admin = people[0];
      await rememberSampleAccount({ db: trx }, { email: admin.email, password, passwordHash });
      return { userIds, projectIds };
    });
  } catch (err) {
    const emailTaken = err instanceof AppError && err.code === 'email_taken';
    if (err instanceof SeedRaceLost || emailTaken || isUniqueViolation(err)) return null;
    throw err;
  }
  const { userIds, projectIds } = seeded;
  const admin = people[0];
  const { uploads, ...activity } = await seedSampleActivity(deps, userIds, projectIds);
  const reportCount = await seedSampleReports(deps, userIds, projectIds, uploads);
  const archivedId = projectIds[archived.project];
  const archivedBy = userIds[archived.by];
  if (archivedId === undefined || archivedBy === undefined)
    throw new Error('sample archive without project or person');
  await setProjectArchived(
    deps.db,
    archivedId,
    archivedBy,
    new Date(Date.now() - archived.daysAgo * DAY).toISOString(),
  );
  return { email: admin.email, ...activity, reports: reportCount };
}
