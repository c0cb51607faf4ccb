import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { rememberSampleAccount } from '../modules/auth/sample-account.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { addMark, insertProject } from '../modules/projects/projects.repository.js';
import { countUsers, insertUser } from '../modules/users/users.repository.js';
import { nowIso, type Database } from './database.js';

export interface SeedDeps {
  config: Config;
  db: Database;
}

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
] as const;

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
] as const;
const follows = [
  [0, 2],
  [0, 3],
  [1, 0],
  [2, 5],
  [3, 1],
  [4, 0],
] as const;

/** A readable random password such as `site-k3vq-9xmt-2hpa`. */
function samplePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `site-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/**
 * Creates the sample company on an empty database: an admin and a few members sharing one
 * random password (the login page prefills it while the admin has not changed it), and
 * construction projects in real cities with bookmarks and follows.
 * Returns the admin's email, or null when the database already had users.
 */
export async function seedSampleWorkspace(deps: SeedDeps): Promise<{ email: string } | null> {
  if ((await countUsers(deps.db)) > 0) return null;
  const password = samplePassword();
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const userIds: number[] = [];
  for (const person of people) {
    userIds.push(
      await insertUser(deps.db, {
        email: person.email,
        firstname: person.firstname,
        lastname: person.lastname,
        password_hash: passwordHash,
        is_admin: person.isAdmin ? 1 : 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
        deactivated_at: null,
      }),
    );
  }
  const projectIds: number[] = [];
  for (const project of projects) {
    const at = new Date(Date.now() - project.ageDays * DAY).toISOString();
    const creatorId = userIds[project.creator];
    if (creatorId === undefined) throw new Error('sample project without creator');
    projectIds.push(
      await insertProject(deps.db, {
        name: project.name,
        location: project.location,
        latitude: project.latitude,
        longitude: project.longitude,
        description: project.description,
        creatorId,
        now: at,
      }),
    );
  }
  for (const [table, pairs] of [
    ['project_bookmarks', bookmarks],
    ['project_follows', follows],
  ] as const) {
    for (const [person, project] of pairs) {
      const userId = userIds[person];
      const projectId = projectIds[project];
      if (userId !== undefined && projectId !== undefined)
        await addMark(deps.db, table, userId, projectId, now);
    }
  }

  const admin = people[0];
  await rememberSampleAccount(deps, { email: admin.email, password, passwordHash });
  return { email: admin.email };
}
