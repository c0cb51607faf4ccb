// Test-only child process (reports.memory.test.ts): makes report PDFs on the test's database and
// storage (the env names them, as for the app) and measures this process's resident memory
// while each is made, sampled every 5 ms. A fresh process, so the numbers are the generation's
// and not the test runner's.
//
// argv: report ids, made in order (claimed as the queue would). Prints one JSON line:
// [{ id, outcome, baselineRss, peakRss, ms }, …].
import { loadConfig } from '../src/config.js';
import { createDatabase, nowIso } from '../src/db/database.js';
import { createStorage } from '../src/media/storage/index.js';
import { generateReport } from '../src/modules/reports/report-generator.js';
import { claimReport } from '../src/modules/reports/reports.repository.js';

const config = loadConfig();
const db = createDatabase(config.database);
const storage = createStorage(config);
const log = {
  info: () => undefined,
  warn: (obj: object, msg: string) => console.error(msg, obj),
  error: (obj: object, msg: string) => console.error(msg, obj),
};

const results: object[] = [];
for (const id of process.argv.slice(2).map(Number)) {
  const claim = await claimReport(db, id, nowIso());
  if (!claim) throw new Error(`report ${id} is not queued`);
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  // The place gazetteer is a cache of the whole process (the server loads it at start, ~200 MB),
  // not part of a report: its lookups are left out here, so that loading it does not blur the
  // measurement. The reports tests cover the real lookup.
  const outcome = await generateReport(
    { db, storage, config, log, placeName: async () => 'Hamburg, Germany' },
    claim,
  );
  const ms = Math.round(performance.now() - started);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  results.push({ id, outcome, baselineRss, peakRss, ms });
}
console.log(JSON.stringify(results));
await storage.close();
await db.destroy();
