// A Vitest reporter for scripts/test.mjs: writes every test that did not run (skipped or todo),
// with the note given to `ctx.skip(note)` when there is one, and every test file skipped as a
// whole (a skipped describe around a `describe.each` over nothing holds no test to list), to the
// JSON file named by VITEST_SKIPS_FILE. Vitest's own JSON reporter drops the notes. It also
// writes every failed test and every file that failed to load, with the first lines of the
// error: the run's summary is often all that is left of a CI run.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** The first lines of an error, without colours, and where it was thrown in a test file. */
function brief(error, file) {
  if (!error) return 'no error recorded';
  const lines = stripVTControlCharacters(String(error.message ?? error))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(0, 6);
  const frame = file && (error.stacks ?? []).find((s) => s.file?.endsWith(file));
  if (frame) lines.push(`at ${file}:${frame.line}`);
  return lines.join('\n');
}

export default class SkipsReporter {
  onTestRunEnd(testModules, unhandledErrors = []) {
    const out = process.env.VITEST_SKIPS_FILE;
    if (!out) return;
    const skipped = [];
    const failed = [];
    for (const testModule of testModules) {
      const file = path.relative(process.cwd(), testModule.moduleId);
      const before = skipped.length;
      for (const error of testModule.errors()) {
        failed.push({ file, name: '(the file itself)', error: brief(error, file) });
      }
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state === 'failed') {
          failed.push({ file, name: test.fullName, error: brief(result.errors?.[0], file) });
        }
        if (result.state !== 'skipped') continue;
        skipped.push({
          file,
          name: test.fullName,
          todo: test.options.mode === 'todo',
          note: result.note ?? null,
        });
      }
      if (testModule.state() === 'skipped' && skipped.length === before) {
        skipped.push({ file, name: '(the whole file)', todo: false, note: null });
      }
    }
    for (const error of unhandledErrors) {
      failed.push({
        file: '(unhandled)',
        name: 'an error outside any test',
        error: brief(error, ''),
      });
    }
    writeFileSync(out, JSON.stringify({ modules: testModules.length, skipped, failed }, null, 2));
  }
}
