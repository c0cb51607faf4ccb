import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Waits until the page's CSS transitions and animations that end have ended (a few rounds, as one
 * ending may start another; at most 2 s a round). axe measures the colours drawn at the moment it
 * looks: a label or button halfway through a colour transition can read as too faint, and which
 * frame axe sees depends on how loaded the machine is. Endless animations (spinners, skeleton
 * pulses) are left running.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let round = 0; round < 5; round += 1) {
      const ending = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)),
        );
      if (ending.length === 0) return;
      await Promise.race([
        Promise.allSettled(ending.map((animation) => animation.finished)),
        new Promise((resolve) => setTimeout(resolve, 2_000)),
      ]);
    }
  });
}

/**
 * axe for a page of the app, set up for this suite: in legacy mode, and reporting violations
 * only. By default AxeBuilder injects axe-core three times per scan and opens a blank page to
 * combine the results of each frame (cross-origin iframes); the app has no iframes, and legacy
 * mode runs axe once in the page itself. A scan of the project page took 2.2–3.8 s by default
 * and 0.8–1.0 s so (2026-11-28), about 90 scans a run. Passes are not listed (`resultTypes`),
 * since no test reads them.
 */
export const axeBuilder = (page: Page): AxeBuilder =>
  new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });

/** axe's serious and critical violations on the page, each with up to 5 of its elements. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await settleAnimations(page);
  const results = await axeBuilder(page).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 5)
          .map(
            (node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').join(' ')}`,
          )
          .join('\n'),
    );
}
