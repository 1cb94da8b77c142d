// Test support for the browser tests against apps compiled by `fitz build`: start a built app
// on a free port, open a page and wait for its live root to join, and one app plus one Chromium
// per suite.
'use strict';

const { before, after, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { launch, open } = require('./harness');

function startApp(binary, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, PORT: '0', FITZ_SECRET_KEY: 'live acceptance test secret', ...env },
    });
    let err = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error('the app exited with ' + code + ': ' + err)));
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/[0-9.]+:\d+)/.exec(err);
      if (m) resolve({ child, base: m[1] });
    });
  });
}

// Opens a page, records the frames its socket sends and receives, and resolves once joined.
async function openLive(browser, base, pathname = '/') {
  const ctx = await open(browser, base, pathname);
  ctx.received = [];
  ctx.sent = [];
  ctx.page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => ctx.received.push(JSON.parse(f.payload)));
    ws.on('framesent', (f) => ctx.sent.push(JSON.parse(f.payload)));
  });
  await ctx.page.waitForFunction(() => {
    const c = document.querySelector('#fz-1 [data-fz-c]');
    return c && c.getAttribute('data-fz-c') !== '0';
  });
  return ctx;
}

// One compiled app and one Chromium per suite; every page a test opens is closed after it, and
// any page error fails that test.
function appSuite(binary, env = {}) {
  const suite = { app: null, chrome: null, open_: [] };
  before(async () => { suite.app = await startApp(binary, env); suite.chrome = await launch(); });
  after(async () => {
    await suite.chrome.close();
    suite.app.child.removeAllListeners('exit');
    suite.app.child.kill('SIGTERM');
  });
  afterEach(async () => {
    const problems = suite.open_.flatMap((c) => c.problems);
    for (const c of suite.open_.splice(0)) await c.context.close();
    assert.deepEqual(problems, [], 'page errors');
  });
  return suite;
}

module.exports = { startApp, openLive, appSuite };
