// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

// The repository's own ESLint config; type information is switched off, as the probes below are
// not files on disk and the zones need none.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

async function zoneErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

const probe = (specifier: string) =>
  `import { thing } from '${specifier}';\nexport const used = thing;\n`;

describe('web import zones (eslint.config.js)', () => {
  it('refuses a feature importing another feature, by alias or by relative path', async () => {
    const file = 'apps/web/src/features/projects/api/probe.ts';
    expect(await zoneErrors(file, probe('@/features/uploads/api/keys'))).toEqual([
      expect.stringContaining('Features do not import each other'),
    ]);
    expect(await zoneErrors(file, probe('../../uploads/api/keys'))).toEqual([
      expect.stringContaining('Do not climb out of the feature'),
    ]);
  });

  it('refuses a feature importing app/', async () => {
    const file = 'apps/web/src/features/uploads/components/probe.tsx';
    expect(await zoneErrors(file, probe('@/app/invalidations'))).toEqual([
      expect.stringContaining('Only app/ composes pages'),
    ]);
  });

  it('refuses lib/ and components/ importing features or app/', async () => {
    for (const file of ['apps/web/src/lib/probe.ts', 'apps/web/src/components/probe.tsx']) {
      expect(await zoneErrors(file, probe('@/features/projects/api/get-project'))).toEqual([
        expect.stringContaining('lib/ and components/ are below the features'),
      ]);
      expect(await zoneErrors(file, probe('../features/projects/api/get-project'))).toHaveLength(1);
      expect(await zoneErrors(file, probe('@/app/router'))).toHaveLength(1);
    }
  });

  it('allows a feature its own folder, lib/ and components/; and app/ every feature', async () => {
    const feature = 'apps/web/src/features/projects/components/probe.tsx';
    expect(await zoneErrors(feature, probe('@/features/projects/api/get-project'))).toEqual([]);
    expect(await zoneErrors(feature, probe('../api/get-project'))).toEqual([]);
    expect(await zoneErrors(feature, probe('@/lib/api-client'))).toEqual([]);
    expect(await zoneErrors(feature, probe('@/components/page-header'))).toEqual([]);
    const page = 'apps/web/src/app/routes/probe.tsx';
    expect(await zoneErrors(page, probe('@/features/uploads/api/keys'))).toEqual([]);
    expect(await zoneErrors(page, probe('@/features/projects/api/keys'))).toEqual([]);
  });
});
