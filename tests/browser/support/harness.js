// Test support for the live-client browser tests: a small HTTP server that serves one page with
// live roots and runtime/live/client/live.js, a scripted WebSocket peer standing in for the Fitz
// server (records every frame the client sends, sends whatever a test scripts), and Chromium.
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { WebSocketServer } = require('ws');
const { chromium } = require('playwright-core');

const LIVE_JS = path.resolve(__dirname, '../../../runtime/live/client/live.js');
const CHROMIUM = process.env.FITZ_CHROMIUM || '/usr/bin/chromium';

function page(body) {
  return '<!doctype html><html><head><meta charset="utf-8"><title>live test</title>' +
    '<script src="/_fitz/live.js?v=test" defer></script></head><body>' + body + '</body></html>';
}

// The scripted server side of one test. `pages` maps a path to the body HTML served there.
class Peer {
  constructor() {
    this.frames = [];         // every frame the client sent, in order, with .conn and .at
    this.conns = [];          // every socket that connected, in order
    this.refuse = false;      // true: upgrades fail, so the client stays disconnected
    this.autoFull = null;     // (joinFrame) => html: answer each join with a `full`
    this.revs = new Map();    // view -> last rev sent by send() helpers
    this.waiters = [];
    this.attempts = 0;        // upgrade requests, refused ones included
  }

  get last() { return this.conns[this.conns.length - 1]; }

  accept(ws) {
    const conn = this.conns.length;
    this.conns.push(ws);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data));
      Object.defineProperty(f, 'conn', { value: conn, enumerable: false });
      Object.defineProperty(f, 'at', { value: Date.now(), enumerable: false });
      this.frames.push(f);
      if (f.t === 'join' && this.autoFull) {
        const html = this.autoFull(f);
        if (html != null) this.full(f.v, html, ws);
      }
      this.poke();
    });
    this.poke();
  }

  poke() {
    for (const w of [...this.waiters]) if (w.check()) this.waiters.splice(this.waiters.indexOf(w), 1);
  }

  send(frame, ws = this.last) {
    ws.send(JSON.stringify(frame));
  }

  full(v, html, ws = this.last, rev = 1) {
    this.revs.set(v, rev);
    this.send({ t: 'full', v, rev, html }, ws);
  }

  patch(v, ops, ws = this.last, rev = (this.revs.get(v) || 0) + 1) {
    this.revs.set(v, rev);
    this.send({ t: 'patch', v, rev, ops }, ws);
  }

  sent(t) { return this.frames.filter((f) => f.t === t); }

  // Resolves once pred() is truthy (checked at every frame and connection), else rejects.
  waitFor(pred, what = 'condition', timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const w = {
        check: () => {
          const v = pred();
          if (!v) return false;
          clearTimeout(w.timer);
          resolve(v);
          return true;
        },
      };
      if (w.check()) return;
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error('timed out waiting for ' + what + '; frames: ' + JSON.stringify(this.frames)));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  waitFrame(t, extra = () => true, what = t) {
    return this.waitFor(() => this.frames.find((f) => f.t === t && extra(f)), what);
  }
}

// Starts the page server and its peer on an ephemeral loopback port.
async function serve(pages) {
  const peer = new Peer();
  const js = fs.readFileSync(LIVE_JS);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    // A strict policy: the client must work with no inline script and same-origin sockets.
    const csp = "default-src 'self'; script-src 'self'; connect-src 'self'";
    if (url.pathname === '/_fitz/live.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(js);
    }
    if (Object.prototype.hasOwnProperty.call(pages, url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      return res.end(page(pages[url.pathname]));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  const wss = new WebSocketServer({
    server,
    path: '/_fitz/live/ws',
    verifyClient: (_info, done) => { peer.attempts++; done(!peer.refuse, 503); peer.poke(); },
  });
  wss.on('connection', (ws) => peer.accept(ws));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = 'http://127.0.0.1:' + server.address().port;
  const close = async () => {
    for (const ws of peer.conns) ws.terminate();
    wss.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return { peer, base, close };
}

// Playwright's launch() always gives Chromium a fresh temporary --user-data-dir of its own (and
// refuses one in args), so each run starts from an empty profile.
async function launch() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  return { browser, close: () => browser.close() };
}

// Opens `pages['/']` in a fresh context; page errors and CSP violations fail the test at the end.
// With `clock`, the page's timers are Playwright's fake clock, advanced by the test.
async function open(browser, base, pathname = '/', { clock = false } = {}) {
  const context = await browser.newContext();
  if (clock) {
    // Paused: time moves only when the test runs it forward.
    const t = Date.now();
    await context.clock.install({ time: t });
    await context.clock.pauseAt(t + 1000);
  }
  context.setDefaultTimeout(5000);   // a stuck wait fails fast instead of eating the budget
  const pg = await context.newPage();
  const problems = [];
  pg.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  pg.on('console', (m) => {
    // A refused reconnect and the missing favicon are expected noise, not client faults.
    if (m.type() === 'error' && !/WebSocket connection to|Failed to load resource/.test(m.text())) {
      problems.push('console: ' + m.text());
    }
  });
  pg.on('dialog', (d) => { problems.push('dialog: ' + d.message()); d.dismiss(); });
  await pg.goto(base + pathname);
  return { context, page: pg, problems };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What every page test file shares: one Chromium per file, a fresh scripted server and browser
// context per test, and a check after each test that the page logged no errors. `t` holds the
// current test's chrome, srv and ctx; `start` serves a body and waits for its roots to join.
function pageSuite() {
  const { it: nodeIt, before, after, afterEach } = require('node:test');
  const assert = require('node:assert/strict');
  const t = { chrome: null, srv: null, ctx: null };
  before(async () => { t.chrome = await launch(); });
  after(async () => { await t.chrome.close(); });
  afterEach(async () => {
    // Everything closes before the check, so a failing test never leaves a server running.
    const problems = t.ctx ? t.ctx.problems : [];
    if (t.ctx) { await t.ctx.context.close(); t.ctx = null; }
    if (t.srv) { await t.srv.close(); t.srv = null; }
    assert.deepEqual(problems, [], 'page errors');
  });
  // Each test gets its own time limit; a file-wide one would fail a slow but healthy run.
  const it = (name, fn) => nodeIt(name, { timeout: 20000 }, fn);
  async function start(body, roots = 1) {
    t.srv = await serve({ '/': body, '/welcome': '<h1>welcome</h1>' });
    t.ctx = await open(t.chrome.browser, t.srv.base);
    await t.srv.peer.waitFor(() => t.srv.peer.sent('join').length >= roots, 'joins');
    return { peer: t.srv.peer, page: t.ctx.page };
  }
  return { t, it, start };
}

module.exports = { serve, launch, open, sleep, pageSuite };
