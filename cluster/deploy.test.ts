// The files in deploy/ are what an operator installs: each is checked by the tool that will read
// it (nginx -t, systemd-analyze, the server's own configuration loader).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../apps/server/src/config.js';
import { nginxConfFile, repoRoot } from './harness.js';

const deploy = path.join(repoRoot, 'deploy');
const scratch = mkdtempSync(path.join(tmpdir(), 'sitelog-deploy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** systemd's EnvironmentFile syntax, as far as the example uses it: KEY=value lines, # comments. */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(trimmed);
    if (!match) throw new Error(`not a KEY=value line in ${file}: ${line}`);
    env[match[1]!] = match[2]!;
  }
  return env;
}

describe('deploy/', () => {
  it('sitelog.env.example is a configuration the server accepts, every variable documented', () => {
    const env = readEnvFile(path.join(deploy, 'sitelog.env.example'));
    expect(env.MIGRATE_ON_START).toBe('off');
    expect(env.STORAGE).toBe('s3');
    expect(env.SECRET).toBe('');
    // The operator fills in the secret; everything else loads as shipped.
    const config = loadConfig({ ...env, SECRET: 'x'.repeat(48), DATA_DIR: scratch });
    expect(config.migrateOnStart).toBe(false);
    expect(config.database.kind).toBe('postgres');
    expect(config.trustProxy).toEqual(['10.0.0.5']);
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    const undocumented = Object.keys(env).filter((key) => !documented.has(key));
    expect(undocumented, 'variables missing from the README').toEqual([]);
  });

  it('sitelog.service passes systemd-analyze verify', () => {
    // verify checks the unit's syntax and that its ExecStart binary exists.
    const unit = path.join(scratch, 'sitelog.service');
    writeFileSync(unit, readFileSync(path.join(deploy, 'sitelog.service')));
    const out = execFileSync('systemd-analyze', ['verify', unit], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
    expect(readFileSync(unit, 'utf8')).toContain('EnvironmentFile=/etc/sitelog/sitelog.env');
  });

  it('nginx accepts nginx.conf with the example upstreams file', () => {
    // The example site file names certificates that exist only on a real server; the test's own
    // site file listens on a port instead.
    writeFileSync(
      path.join(scratch, 'sitelog-upstreams.conf'),
      readFileSync(path.join(deploy, 'sitelog-upstreams.conf.example')),
    );
    writeFileSync(path.join(scratch, 'sitelog-site.conf'), 'listen 127.0.0.1:8099;\n');
    const main = path.join(scratch, 'nginx.conf');
    writeFileSync(
      main,
      `pid ${scratch}/nginx.pid;\nerror_log ${scratch}/error.log;\nevents {}\n` +
        `http { client_body_temp_path ${scratch}/body; proxy_temp_path ${scratch}/proxy; ` +
        `include ${nginxConfFile}; }\n`,
    );
    const out = execFileSync(
      'nginx',
      ['-t', '-e', `${scratch}/error.log`, '-p', scratch, '-c', main],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(out).toBe('');
  });
});
