import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, locateChromium } from './chromium';
import { packagedChromium } from './packaged-chromium';

const folder = mkdtempSync(join(tmpdir(), 'broken-chromium-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A launcher script like Debian's /usr/bin/chromium, whose browser has gone. */
function brokenLauncher(): string {
  const path = join(folder, 'chromium');
  writeFileSync(path, '#!/bin/sh\nexec /nonexistent/chromium "$@"\n');
  chmodSync(path, 0o755);
  return path;
}

describe("finding the tests' Chromium", () => {
  it('takes CHROMIUM_PATH alone and fails naming it when it is not there', async () => {
    const missing = join(tmpdir(), 'no-such-folder', 'chromium');
    await expect(locateChromium({ ...process.env, CHROMIUM_PATH: missing })).rejects.toThrow(`CHROMIUM_PATH=${missing} is missing or not executable`);
  });

  it('passes over a launcher on PATH whose browser is gone and finds one that starts', async () => {
    const launcher = brokenLauncher();
    const found = await locateChromium({ ...process.env, CHROMIUM_PATH: '', PATH: join(launcher, '..') });
    expect(found.executablePath).not.toBe(launcher);
    const browser = await launchChromium(found);
    try {
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the Chromium that @sparticuz/chromium ships', () => {
  it('renders with its own fonts, takes screenshots and offers the virtual authenticator', { timeout: 120_000 }, async () => {
    const browser = await launchChromium(await packagedChromium());
    try {
      const page = await browser.newPage();
      await page.setContent('<p style="font-family: sans-serif; font-size: 32px">Passkeys and widgets</p>');
      const cdp = await page.context().newCDPSession(page);
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'p' });
      await cdp.send('CSS.enable');
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      expect(fonts.map((font) => font.familyName)).toEqual(['Open Sans']);
      expect((await page.screenshot()).length).toBeGreaterThan(1000);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      expect(authenticatorId).not.toBe('');
    } finally {
      await browser.close();
    }
  });
});
