// A Vitest reporter for scripts/test.mjs: writes every test that did not run (skipped or todo),
// with the note given to `ctx.skip(note)` when there is one, and every test file skipped as a
// whole (a skipped describe around a `describe.each` over nothing holds no test to list), to the
// JSON file named by VITEST_SKIPS_FILE. Vitest's own JSON reporter drops the notes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export default class SkipsReporter {
  onTestRunEnd(testModules) {
    const out = process.env.VITEST_SKIPS_FILE;
    if (!out) return;
    const skipped = [];
    for (const testModule of testModules) {
      const file = path.relative(process.cwd(), testModule.moduleId);
      const before = skipped.length;
      for (const test of testModule.children.allTests()) {
        const result = test.result();
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
    writeFileSync(out, JSON.stringify({ modules: testModules.length, skipped }, null, 2));
  }
}
