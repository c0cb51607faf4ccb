/**
 * The password policy's cost on the request path: the worst inputs we know for zxcvbn (long,
 * l33t-heavy, date-like) against one argon2id hash of the same password, which every password
 * change pays anyway. Interleaved rounds; the median ratio is the figure.
 *
 *   npx tsx bench/passwords.ts
 */
import { hashPassword, passwordProblem } from '../apps/server/src/modules/auth/passwords.js';
import { compare } from './measure.js';

const owner = { firstname: 'Ann', lastname: 'Lee', email: 'ann.lee@example.com' };
const inputs = {
  'random 256 chars': Array.from(
    { length: 256 },
    (_, i) => 'aZ3$!q9@|+(0'[(i * 7919) % 12] ?? 'a',
  ).join(''),
  'l33t 256 chars': '4B3$1|0@5+7('.repeat(22).slice(0, 256),
  'dates 256 chars': '1'.repeat(10) + '2024-01-01'.repeat(24).slice(0, 246),
  'passphrase 40 chars': 'copper lantern drifts over quiet harbour',
};

await passwordProblem('warm up the estimator', owner);
console.log('input                 policy ms   argon2id ms   ratio');
for (const [label, password] of Object.entries(inputs)) {
  const r = await compare(
    async () => passwordProblem(password, owner),
    () => hashPassword(password),
  );
  console.log(
    `${label.padEnd(20)}  ${r.a.toFixed(2).padStart(9)}   ${r.b.toFixed(2).padStart(11)}   ${r.ratio.toFixed(2)}`,
  );
}
