// End to end: live.js in a real Chromium against the real Fitz HTTP and WebSocket runtimes
// with hand-written C++ views (tests/live/server, binary fitz_live_test_server), plus raw
// sockets for the hardening of views.md §2.7. Skipped when FITZ_LIVE_TEST_SERVER is not set
// (scripts/run-tests.sh passes the built binary).
'use strict';

const { describe, it: nodeIt, before, after, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const { launch } = require('../support/harness');
const { startServer, openLive, rawSocket, tokenOf } = require('../support/live_server');

const it = (name, fn) => nodeIt(name, { timeout: 20000 }, fn);
const SERVER = process.env.FITZ_LIVE_TEST_SERVER;

describe('live server', { skip: SERVER ? false : 'FITZ_LIVE_TEST_SERVER not set' }, () => {
  let srv;
  let chrome;
  const open_ = [];
  before(async () => { srv = await startServer(); chrome = await launch(); });
  after(async () => {
    await chrome.close();
    srv.child.removeAllListeners('exit');
    srv.child.kill('SIGTERM');
  });
  afterEach(async () => {
    const problems = open_.flatMap((c) => c.problems);
    for (const c of open_.splice(0)) await c.context.close();
    assert.deepEqual(problems, [], 'page errors');
  });

  it('serves the page before any script, then counts with one text patch per click', async () => {
    const html = await (await fetch(srv.base + '/')).text();
    assert.match(html, /Count: 0/);
    assert.match(html, /<script src="\/_fitz\/live\.js\?v=[0-9a-f]{16}" defer><\/script>/);

    const a = await openLive(chrome.browser, srv.base); open_.push(a);
    const b = await openLive(chrome.browser, srv.base); open_.push(b);
    const before = a.received.length;
    const entries = await a.page.evaluate(() => history.length);
    for (let i = 1; i <= 3; i++) {
      await a.page.click('#inc');
      await a.page.waitForFunction((n) => document.querySelector('#count')?.textContent === 'Count: ' + n, i);
    }
    const frames = a.received.slice(before);
    const patches = frames.filter((f) => f.t === 'patch');
    assert.equal(patches.length, 3);
    for (const p of patches) {
      assert.equal(p.ops.length, 1);
      assert.equal(p.ops[0][0], 'text');
    }
    assert.equal(frames.filter((f) => f.t === 'ack').length, 3);
    assert.equal(await a.page.evaluate(() => history.length), entries);  // no navigation

    // The second context has its own instance.
    assert.equal(await b.page.textContent('#count'), 'Count: 0');
    await b.page.click('#inc');
    await b.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
    assert.equal(await a.page.textContent('#count'), 'Count: 3');
  });

  it('an async handler awaiting in one view: the other view on the same socket answers at once; the save arrives later', async () => {
    const c = await openLive(chrome.browser, srv.base, '/two'); open_.push(c);
    await c.page.waitForFunction(() => {
      const n = document.querySelector('#fz-2 [data-fz-c]');
      return n && n.getAttribute('data-fz-c') !== '0';
    });
    const t0 = Date.now();
    await c.page.click('#save');
    for (let i = 1; i <= 3; i++) {
      await c.page.click('#inc');
      await c.page.waitForFunction((n) => document.querySelector('#count')?.textContent === 'Count: ' + n, i);
    }
    assert.ok(Date.now() - t0 < 1200, 'the counter answered while the save awaited');
    assert.equal(await c.page.textContent('#saved'), 'Saved: 0');
    await c.page.waitForFunction(() => document.querySelector('#saved')?.textContent === 'Saved: 1');
    assert.ok(Date.now() - t0 >= 1400, 'the save took its time');
    // Pending until its ack, which comes after its patch: four events, four acks.
    await c.page.waitForFunction(() => !document.querySelector('#save').classList.contains('fz-pending'));
    assert.equal(c.received.filter((f) => f.t === 'ack').length, 4);
  });

  it('a failing handler leaves the state as it was and later clicks work', async () => {
    const a = await openLive(chrome.browser, srv.base); open_.push(a);
    await a.page.click('#fail');
    await a.page.waitForFunction(() => true);
    for (let i = 0; i < 50 && !a.received.some((f) => f.t === 'error'); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(a.received.some((f) => f.t === 'error' && f.code === 'handler'));
    assert.equal(await a.page.textContent('#count'), 'Count: 0');
    await a.page.click('#inc');
    await a.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
  });

  it('three failing handlers within 10 s crash the instance: remounted and sent as full', async () => {
    const a = await openLive(chrome.browser, srv.base); open_.push(a);
    await a.page.click('#inc');
    await a.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
    const fulls = () => a.received.filter((f) => f.t === 'full').length;
    const before = fulls();
    for (let i = 0; i < 2; i++) await a.page.click('#fail');
    for (let i = 0; i < 50 && a.received.filter((f) => f.t === 'error').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fulls(), before);
    assert.equal(await a.page.textContent('#count'), 'Count: 1');  // two failures: still the same instance
    await a.page.click('#fail');
    await a.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 0');
    assert.equal(fulls(), before + 1);
    await a.page.click('#inc');  // the fresh instance works
    await a.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
  });

  it('renders a hostile state string literally and a javascript: link as #', async () => {
    const evil = '"><img src=x onerror=alert(1)>';
    const c = await openLive(chrome.browser, srv.base, '/text'); open_.push(c);
    assert.equal(await c.page.textContent('#shown'), evil);
    assert.equal(await c.page.getAttribute('#shown', 'title'), evil);
    assert.equal(await c.page.locator('img').count(), 0);
    assert.equal(await c.page.getAttribute('#link', 'href'), '#');
    await c.page.click('#twice');  // the same string through a patch
    await c.page.waitForFunction((s) => document.querySelector('#shown')?.textContent === s, evil + evil);
    assert.equal(await c.page.getAttribute('#shown', 'title'), evil + evil);
    assert.equal(await c.page.locator('img').count(), 0);
    // A dialog would be in problems (checked after each test).
  });

  it('serves the client with a content hash ETag and immutable caching for ?v=', async () => {
    const html = await (await fetch(srv.base + '/')).text();
    const v = /live\.js\?v=([0-9a-f]+)/.exec(html)[1];
    const r1 = await fetch(srv.base + '/_fitz/live.js?v=' + v);
    assert.equal(r1.status, 200);
    assert.match(r1.headers.get('content-type'), /^text\/javascript/);
    assert.equal(r1.headers.get('etag'), '"' + v + '"');
    assert.equal(r1.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(await r1.text(), /fz-disconnected/);
    const r2 = await fetch(srv.base + '/_fitz/live.js', { headers: { 'If-None-Match': '"' + v + '"' } });
    assert.equal(r2.status, 304);
    assert.equal(r2.headers.get('cache-control'), 'no-cache');
    const r3 = await fetch(srv.base + '/_fitz/live.js?v=0000000000000000');
    assert.equal(r3.headers.get('cache-control'), 'no-cache');
  });

  it('refuses a wrong Origin with 403 before the upgrade', async () => {
    await assert.rejects(rawSocket(srv, { origin: 'http://evil.example' }), (e) => e.status === 403);
    await assert.rejects(rawSocket(srv, { origin: '' }), (e) => e.status === 403);
  });

  it('closes with 1008 on a bad token and on another user\'s token', async () => {
    const s = await rawSocket(srv);
    s.send({ t: 'join', v: 'fz-1', tok: '1.AAAA', rev: 0 });
    assert.equal(await s.closed, 1008);

    const alice = await tokenOf(srv, '/', 'uid=alice');
    const bob = await rawSocket(srv, { cookie: 'uid=bob' });
    bob.send({ t: 'join', v: 'fz-1', tok: alice, rev: 0 });
    assert.equal(await bob.closed, 1008);

    const own = await rawSocket(srv, { cookie: 'uid=alice' });
    own.send({ t: 'join', v: 'fz-1', tok: alice, rev: 0 });
    assert.equal((await own.next()).t, 'full');
    own.ws.close();
  });

  it('forged events get an error frame and change nothing; the socket stays open', async () => {
    const s = await rawSocket(srv);
    s.send({ t: 'join', v: 'fz-1', tok: await tokenOf(srv), rev: 0 });
    const full = await s.next();
    assert.equal(full.t, 'full');
    assert.match(full.html, /Count: 0/);
    const c = Number(/data-fz-c="(\d+)"/.exec(full.html)[1]);
    assert.ok(c > 0);

    s.send({ t: 'ev', v: 'fz-1', ref: 1, c: c + 1000, e: 'inc', p: {} });
    let f = await s.next();
    assert.deepEqual([f.t, f.code, f.ref], ['error', 'component', 1]);
    s.send({ t: 'ev', v: 'fz-1', ref: 2, c, e: 'mount', p: {} });
    f = await s.next();
    assert.deepEqual([f.t, f.code], ['error', 'event']);  // a hook: refused by the frame parser
    s.send({ t: 'ev', v: 'fz-1', ref: 3, c, e: 'nope', p: {} });
    f = await s.next();
    assert.deepEqual([f.t, f.code, f.ref], ['error', 'event', 3]);

    s.send({ t: 'ev', v: 'fz-1', ref: 4, c, e: 'inc', p: {} });
    f = await s.next();
    assert.equal(f.t, 'patch');
    assert.deepEqual(f.ops, [['text', [0, 0, 0], 'Count: 1']]);  // 0 before: nothing changed
    assert.deepEqual(await s.next(), { t: 'ack', ref: 4 });

    s.send({ t: 'hb' });
    assert.equal((await s.next()).t, 'hb');
    s.send({ t: 'resync', v: 'fz-1' });
    const again = await s.next();
    assert.equal(again.t, 'full');
    assert.match(again.html, /Count: 1/);

    s.ws.send('x'.repeat(70 * 1024));
    assert.equal(await s.closed, 1009);
  });
});

describe('live server rebuilt', { skip: SERVER ? false : 'FITZ_LIVE_TEST_SERVER not set' }, () => {
  it('an open page reloads when the server comes back as another build (fitz dev)', async () => {
    // Build b1 with a per-process key, as `fitz dev` runs it.
    const first = await startServer({ FITZ_LIVE_TEST_BUILD: 'b1' });
    const port = first.base.split(':').pop();
    const chrome = await launch();
    let second;
    try {
      const ctx = await openLive(chrome.browser, first.base);
      assert.equal(await ctx.page.getAttribute('#fz-1', 'data-fz-build'), 'b1');
      await ctx.page.click('#inc');
      await ctx.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
      await ctx.page.evaluate(() => { window.beforeRebuild = true; });

      // The rebuilt server: same port, new build, new key (the page's token no longer opens).
      first.child.removeAllListeners('exit');
      const exited = new Promise((r) => first.child.on('exit', r));
      first.child.kill('SIGTERM');
      await exited;
      second = await startServer({ FITZ_LIVE_TEST_BUILD: 'b2', FITZ_LIVE_TEST_PORT: port });

      // The client reconnects, rejoins with b1, gets `reload` and loads the page of build b2.
      await ctx.page.waitForFunction(() => {
        const root = document.querySelector('#fz-1');
        return !window.beforeRebuild && root && root.getAttribute('data-fz-build') === 'b2';
      }, null, { timeout: 15000 });
      await ctx.page.waitForFunction(() => {
        const c = document.querySelector('#fz-1 [data-fz-c]');
        return c && c.getAttribute('data-fz-c') !== '0';
      });
      assert.equal(await ctx.page.textContent('#count'), 'Count: 0');  // a fresh mount
      await ctx.page.click('#inc');
      await ctx.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
      assert.deepEqual(ctx.problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p)), []);
      await ctx.context.close();
    } finally {
      await chrome.close();
      for (const s of [first, second]) {
        if (!s) continue;
        s.child.removeAllListeners('exit');
        s.child.kill('SIGTERM');
      }
    }
  });
});
