// Server push end to end (views.md §1.3, §1.8, §5 tests 3 and 9): a Chat room with presence in
// two browser contexts, presence dropped by a clean close at once and by a silent heartbeat
// after the (test-shortened) timeout, and an `on every 1s` Clock whose timers the server counts.
// Skipped when FITZ_LIVE_TEST_SERVER is not set.
'use strict';

const { describe, it: nodeIt, before, after, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const { launch, sleep } = require('../support/harness');
const { SERVER, startServer, openLive, rawSocket, tokenOf } = require('../support/live_server');

const it = (name, fn) => nodeIt(name, { timeout: 20000 }, fn);
// Short enough to wait for in a test; the pages' heartbeat is shortened to match.
const PRESENCE_TIMEOUT_MS = 1500;

const online = (ctx) => ctx.page.textContent('#online');
const waitText = (ctx, sel, text, timeout) =>
  ctx.page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent === t, [sel, text], { timeout });

// The server's `fitz_live_active_timers` gauge on /metrics.
async function activeTimers(srv) {
  const text = await (await fetch(srv.base + '/metrics')).text();
  return Number(/^fitz_live_active_timers (\d+)$/m.exec(text)[1]);
}

async function until(check, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(25);
  }
}

describe('server push', { skip: SERVER ? false : 'FITZ_LIVE_TEST_SERVER not set' }, () => {
  let srv;
  let chrome;
  const open_ = [];
  const openPage = async (pathname) => {
    const c = await openLive(chrome.browser, srv.base, pathname);
    open_.push(c);
    return c;
  };
  before(async () => {
    srv = await startServer({ FITZ_LIVE_PRESENCE_TIMEOUT_MS: String(PRESENCE_TIMEOUT_MS), FITZ_LIVE_TEST_HB_MS: '300' });
    chrome = await launch();
  });
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

  it('chat: presence in two contexts, a message as literal text, a closed tab drops at once', async () => {
    const ann = await openPage('/chat?room=r1&name=Ann');
    const bob = await openPage('/chat?room=r1&name=Bob');
    await waitText(ann, '#online', '2 online: Ann, Bob');
    await waitText(bob, '#online', '2 online: Ann, Bob');

    // A second tab of Ann's collapses into her entry.
    const ann2 = await openPage('/chat?room=r1&name=Ann');
    await waitText(ann2, '#online', '2 online: Ann, Bob');
    assert.equal(await online(ann), '2 online: Ann, Bob');

    const said = 'hi <b>x</b>';
    await ann.page.fill('#text', said);
    const sent = Date.now();
    await ann.page.click('#go');
    await waitText(bob, '#messages li', 'Ann: ' + said, 1000);
    assert.ok(Date.now() - sent < 1000);
    assert.equal(await bob.page.locator('#messages b').count(), 0);
    await waitText(ann, '#messages li', 'Ann: ' + said);
    assert.equal(await ann.page.inputValue('#text'), '');
    assert.equal(await ann.page.inputValue('#name'), 'Ann');
    // One message, one patch on Bob's side, not a full.
    assert.equal(bob.received.filter((f) => f.t === 'full').length, 1);

    // A clean close leaves at once, well before the heartbeat timeout.
    const closed = Date.now();
    await bob.context.close();
    open_.splice(open_.indexOf(bob), 1);
    await waitText(ann, '#online', '1 online: Ann', PRESENCE_TIMEOUT_MS - 200);
    assert.ok(Date.now() - closed < PRESENCE_TIMEOUT_MS);
  });

  it('chat: a socket whose heartbeat goes silent drops out after the timeout', async () => {
    const ann = await openPage('/chat?room=r2&name=Ann');
    await waitText(ann, '#online', '1 online: Ann');
    // A raw socket joins as Carl and then never sends another frame.
    const carl = await rawSocket(srv);
    carl.send({ t: 'join', v: 'fz-1', tok: await tokenOf(srv, '/chat?room=r2&name=Carl'), rev: 0 });
    assert.equal((await carl.next()).t, 'full');
    await waitText(ann, '#online', '2 online: Ann, Carl');
    const joined = Date.now();
    assert.equal(await carl.closed, 1001);
    await waitText(ann, '#online', '1 online: Ann');
    const gone = Date.now() - joined;
    assert.ok(gone >= PRESENCE_TIMEOUT_MS - 300 && gone < PRESENCE_TIMEOUT_MS + 1500, 'dropped after ' + gone + ' ms');
    // Ann's own page beats in time and stays.
    await sleep(PRESENCE_TIMEOUT_MS);
    assert.equal(await online(ann), '1 online: Ann');
    assert.ok(!(await ann.page.evaluate(() => document.querySelector('#fz-1').classList.contains('fz-disconnected'))));
  });

  it('clock: ticks in two contexts with no input; closing a tab stops its timer', async () => {
    const base = await activeTimers(srv);
    const a = await openPage('/clock');
    const b = await openPage('/clock');
    await until(async () => (await activeTimers(srv)) === base + 2);
    await waitText(a, '#ticks', 'Ticks: 2', 4000);
    await waitText(b, '#ticks', 'Ticks: 2', 4000);
    // Each tick is a one-op text patch.
    const patches = a.received.filter((f) => f.t === 'patch');
    assert.ok(patches.length >= 2);
    for (const p of patches) assert.deepEqual(p.ops.map((o) => o[0]), ['text']);

    await b.context.close();
    open_.splice(open_.indexOf(b), 1);
    await until(async () => (await activeTimers(srv)) === base + 1);
    await waitText(a, '#ticks', 'Ticks: 3', 4000);
  });
});

// Two replicas on one Postgres (FITZ_WS_PUBSUB=postgres): a publish on one reaches the
// subscribers of the other, and presence lists merge both replicas' entries. Skipped without
// FITZ_TEST_DATABASE_URL.
const DB = process.env.FITZ_TEST_DATABASE_URL;
describe('server push across replicas', { skip: SERVER && DB ? false : 'FITZ_LIVE_TEST_SERVER or FITZ_TEST_DATABASE_URL not set' }, () => {
  const servers = [];
  after(() => {
    for (const s of servers) { s.child.removeAllListeners('exit'); s.child.kill('SIGTERM'); }
  });

  it('a chat message published on one replica reaches a view on the other', async () => {
    const env = { FITZ_WS_PUBSUB: 'postgres', FITZ_WS_PUBSUB_URL: DB };
    servers.push(await startServer(env), await startServer(env));
    const [a, b] = servers;
    const room = 'replicas-' + process.pid;
    const ann = await rawSocket(a);
    ann.send({ t: 'join', v: 'fz-1', tok: await tokenOf(a, '/chat?room=' + room + '&name=Ann'), rev: 0 });
    const full = await ann.next();
    const c = Number(/data-fz-c="(\d+)"/.exec(full.html)[1]);
    const bob = await rawSocket(b);
    bob.send({ t: 'join', v: 'fz-1', tok: await tokenOf(b, '/chat?room=' + room + '&name=Bob'), rev: 0 });
    assert.equal((await bob.next()).t, 'full');
    // Each replica LISTENs once it has connected to Postgres: send until one gets through.
    let got = null;
    const seen = [];
    bob.ws.on('message', (d) => seen.push(String(d)));
    for (let i = 0; i < 40 && !got; i++) {
      ann.send({ t: 'ev', v: 'fz-1', ref: i + 1, c, e: 'send', p: { name: 'Ann', text: 'across ' + i } });
      await sleep(150);
      got = seen.find((f) => /Ann: across \d+/.test(f));
    }
    assert.ok(got, 'no message crossed the replicas');
    ann.ws.close();
    bob.ws.close();
  });

  it('presence: each replica lists the users of the other, and drops them when it dies', async () => {
    const env = {
      FITZ_WS_PUBSUB: 'postgres', FITZ_WS_PUBSUB_URL: DB,
      FITZ_LIVE_PRESENCE_TIMEOUT_MS: String(PRESENCE_TIMEOUT_MS), FITZ_LIVE_TEST_HB_MS: '300',
    };
    const a = await startServer(env), b = await startServer(env);
    servers.push(a, b);
    const chrome = await launch();
    try {
      const room = 'presence-' + process.pid;
      const ann = await openLive(chrome.browser, a.base, '/chat?room=' + room + '&name=Ann');
      const bob = await openLive(chrome.browser, b.base, '/chat?room=' + room + '&name=Bob');
      // A replica LISTENs once connected to Postgres; states are refreshed until then.
      await waitText(ann, '#online', '2 online: Ann, Bob', 8000);
      await waitText(bob, '#online', '2 online: Ann, Bob', 8000);
      // Another of Bob's tabs, on Ann's replica: still one Bob.
      const bob2 = await openLive(chrome.browser, a.base, '/chat?room=' + room + '&name=Bob');
      await waitText(bob2, '#online', '2 online: Ann, Bob', 8000);
      await bob2.context.close();
      // Bob's replica dies without a word: its entries go after three missed refreshes.
      b.child.removeAllListeners('exit');
      b.child.kill('SIGKILL');
      await waitText(ann, '#online', '1 online: Ann', 4 * PRESENCE_TIMEOUT_MS);
      await ann.context.close();
      await bob.context.close();
    } finally {
      await chrome.close();
    }
  });
});
