import type { Workspace, workspacePatchSchema } from '@sitelog/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import { secretFingerprint } from '../../media/signed-urls.js';
import * as repo from './workspace.repository.js';

/**
 * The workspace: what the whole team shares. For now its name (the company or team a report's
 * cover names), kept in the `settings` table.
 */
export interface WorkspaceDeps {
  db: Database;
}

/**
 * The company or team name, empty when no admin has set one. The reports module takes it as a
 * new report's default team name.
 */
export async function getTeamName(db: Database): Promise<string> {
  return (await repo.findTeamName(db)) ?? '';
}

/**
 * Stores the company or team name as given (the route's schema trims it to one line; the sample
 * workspace names its company). An empty name clears it.
 */
export async function setTeamName(db: Database, name: string): Promise<void> {
  await repo.saveTeamName(db, name);
}

/** GET /api/workspace: any signed-in member. */
export async function getWorkspace(deps: WorkspaceDeps): Promise<Workspace> {
  return { teamName: await getTeamName(deps.db) };
}

/**
 * PATCH /api/workspace (admins; the route's access says so): sets the team name, trimmed and on
 * one line by the schema; an empty name clears it. Answers the workspace as it now is.
 */
export async function updateWorkspace(
  deps: WorkspaceDeps,
  patch: z.output<typeof workspacePatchSchema>,
): Promise<Workspace> {
  await setTeamName(deps.db, patch.teamName);
  return getWorkspace(deps);
}

/** What an instance says at start about the secret the other instances use. */
export const SECRET_MISMATCH =
  "This instance's SECRET differs from the one another instance of this database uses; media " +
  'links signed by one are refused by the other. Give every instance the same SECRET.';

/**
 * Called at every start: compares this instance's media-signing secret with the one the
 * instance started last on this database used (by fingerprint, in `settings`), logs an error
 * when they differ, then records its own. Every instance must sign with one secret, or a link
 * one signs is refused by the others (a load balancer sends the browser to any of them).
 */
export async function checkSharedSecret(
  deps: { db: Database; secret: string },
  log: { error(obj: object, msg: string): void },
): Promise<void> {
  const mine = secretFingerprint(deps.secret);
  const recorded = await repo.findSecretFingerprint(deps.db);
  if (recorded !== undefined && recorded !== mine)
    log.error({ fingerprint: mine, otherFingerprint: recorded }, SECRET_MISMATCH);
  if (recorded !== mine) await repo.saveSecretFingerprint(deps.db, mine);
}
