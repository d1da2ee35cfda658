/**
 * The system Chromium the benchmarks drive, and the flags it needs on this closed network
 * (without the background-networking ones it keeps trying to reach Google; NOTES.md).
 * playwright.config.ts passes the same flags to its browser.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
