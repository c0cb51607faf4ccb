// The server's import zones (eslint.config.js) refuse an import across a layer. Each case lints
// a few lines as if they were the named file of the tree, with the repository's real config.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The messages no-restricted-imports gives for `code` placed in `file` (relative to the root). */
async function zoneErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('server import zones', { timeout: 60_000 }, () => {
  it.each([
    ['db imports a module', 'apps/server/src/db/schema.ts', '../modules/users/users.service.js'],
    ['db imports media', 'apps/server/src/db/schema.ts', '../media/links.js'],
    ['config imports db', 'apps/server/src/config.ts', './db/database.js'],
    ['load-once imports media', 'apps/server/src/load-once.ts', './media/links.js'],
    ['media imports a module', 'apps/server/src/media/links.ts', '../modules/auth/auth.service.js'],
    [
      "a module imports another module's repository",
      'apps/server/src/modules/projects/projects.service.ts',
      '../users/users.repository.js',
    ],
    [
      'the sample workspace imports a repository',
      'apps/server/src/sample/sample-workspace.ts',
      '../modules/projects/projects.repository.js',
    ],
  ])('refuses: %s', async (_label, file, from) => {
    const errors = await zoneErrors(file, `import * as x from '${from}';\nexport { x };\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(from);
  });

  it.each([
    ['db imports config', 'apps/server/src/db/schema.ts', '../config.js'],
    ['media imports db', 'apps/server/src/media/links.ts', '../db/database.js'],
    [
      'a module imports its own repository',
      'apps/server/src/modules/projects/projects.service.ts',
      './projects.repository.js',
    ],
    [
      "a module imports another module's service",
      'apps/server/src/modules/projects/projects.service.ts',
      '../users/users.service.js',
    ],
    [
      'a module imports media',
      'apps/server/src/modules/uploads/uploads.service.ts',
      '../../media/links.js',
    ],
  ])('allows: %s', async (_label, file, from) => {
    expect(await zoneErrors(file, `import * as x from '${from}';\nexport { x };\n`)).toEqual([]);
  });
});
