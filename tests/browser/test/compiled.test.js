// Acceptance examples of views.md §5 against compiled apps: 3 (chat and presence,
// examples/live-views), 6 (reconnect), 7 (an @authenticated page) and 9 (a clock, all three
// tests/live/app), live roots in a classic page (`live_embed`), children with their own timers
// (tests/live/app /clocks) and stable siblings across an `{#if}` (/anchors);
// `ctx.params` and `ctx.query` after the join; and the project `fitz new --template liveviews`
// creates (FITZ_LIVE_TEMPLATE), used in a browser as generated. scripts/test-browser.sh builds
// the three apps when FITZ_BIN is set; unset, these are skipped.
'use strict';

const { describe, it: nodeIt } = require('node:test');
const assert = require('node:assert/strict');
const { sleep } = require('../support/harness');
const { appSuite, openLive } = require('../support/apps');
const { rawSocket, tokenOf } = require('../support/live_server');

const it = (name, fn) => nodeIt(name, { timeout: 20000 }, fn);
const APP = process.env.FITZ_LIVE_APP;
const EXAMPLE = process.env.FITZ_LIVE_EXAMPLE;
const TEMPLATE = process.env.FITZ_LIVE_TEMPLATE;

const text = (ctx, sel) => ctx.page.evaluate((s) => document.querySelector(s)?.textContent, sel);
// On a timeout the error says what the element showed instead.
const waitText = (ctx, sel, want, timeout = 5000) =>
  ctx.page.waitForFunction(([s, w]) => document.querySelector(s)?.textContent === w, [sel, want], { timeout })
    .catch(async (e) => { throw new Error(`${sel}: wanted ${JSON.stringify(want)}, shows ${JSON.stringify(await text(ctx, sel))}: ${e.message}`); });

describe('compiled example: chat with presence', { skip: EXAMPLE ? false : 'FITZ_LIVE_EXAMPLE not set' }, () => {
  const suite = appSuite(EXAMPLE, process.env.FITZ_TEST_DATABASE_URL ? { DATABASE_URL: process.env.FITZ_TEST_DATABASE_URL } : {});

  // Each user types a name and leaves the box (a `change`), which tracks them in the room.
  async function enter(name) {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/chat/lobby');
    suite.open_.push(c);
    await c.page.fill('#name', name);
    await c.page.press('#name', 'Tab');
    return c;
  }

  it('3. chat: both see two online; a message arrives as literal text; a closed tab leaves', async () => {
    const ann = await enter('Ann');
    const bob = await enter('Bob');
    for (const c of [ann, bob]) await waitText(c, '#online', '2 online: Ann, Bob');

    await ann.page.fill('#text', 'hi <b>x</b>');
    const sentAt = Date.now();
    await ann.page.click('#send');
    await bob.page.waitForFunction(() => document.querySelector('#messages li .text')?.textContent === 'hi <b>x</b>',
      null, { timeout: 1000 });
    assert.ok(Date.now() - sentAt < 1000);
    assert.equal(await bob.page.evaluate(() => document.querySelectorAll('#messages b').length), 1);  // the name only
    assert.equal(await text(bob, '#messages li b'), 'Ann');
    await ann.page.waitForFunction(() => document.querySelector('#text').value === '');
    assert.equal(await ann.page.inputValue('#name'), 'Ann');
    await waitText(ann, '#messages li .text', 'hi <b>x</b>');  // the publisher's own view too

    // Closing the tab closes its socket: the view unmounts and its presence goes with it.
    suite.open_.splice(suite.open_.indexOf(bob), 1);
    await bob.context.close();
    await waitText(ann, '#online', '1 online: Ann', 35000);
  });
});

describe('compiled app: server push', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);
  const timers = async () => {
    const body = await (await fetch(suite.app.base + '/metrics')).text();
    return Number(/^fitz_live_active_timers (\d+)$/m.exec(body)[1]);
  };

  it('9. a clock advances in two tabs with no input; closing one stops its timer', async () => {
    const a = await openLive(suite.chrome.browser, suite.app.base, '/clock');
    const b = await openLive(suite.chrome.browser, suite.app.base, '/clock');
    suite.open_.push(a, b);
    const start = [Number(await text(a, '#ticks')), Number(await text(b, '#ticks'))];
    await sleep(2300);
    const later = [Number(await text(a, '#ticks')), Number(await text(b, '#ticks'))];
    assert.ok(later[0] >= start[0] + 2 && later[1] >= start[1] + 2, `ticks ${start} -> ${later}`);
    assert.equal(await timers(), 2);

    suite.open_.splice(suite.open_.indexOf(b), 1);
    await b.context.close();
    const deadline = Date.now() + 5000;
    while ((await timers()) !== 1 && Date.now() < deadline) await sleep(50);
    assert.equal(await timers(), 1);
    const n = Number(await text(a, '#ticks'));
    await a.page.waitForFunction((m) => Number(document.querySelector('#ticks')?.textContent) > m, n, { timeout: 3000 });
  });

  // Child components' timers (views.md §1.3, §1.5): one per child instance, stopped with it.
  const waitTimers = async (want) => {
    const deadline = Date.now() + 5000;
    while ((await timers()) !== want && Date.now() < deadline) await sleep(50);
    assert.equal(await timers(), want);
  };

  it('two children tick on their own; hiding one stops its timer and the other keeps going', async () => {
    await waitTimers(0);  // the previous test's pages are closed
    const c = await openLive(suite.chrome.browser, suite.app.base, '/clocks');
    suite.open_.push(c);
    await waitTimers(2);
    await c.page.waitForFunction(() => ['#tick-a', '#tick-b'].every((s) => Number(document.querySelector(s)?.textContent) >= 2),
      null, { timeout: 5000 });

    await c.page.click('#hide');
    await c.page.waitForFunction(() => !document.querySelector('#tick-b'), null, { timeout: 3000 });
    await waitTimers(1);
    const n = Number(await text(c, '#tick-a'));
    await c.page.waitForFunction((m) => Number(document.querySelector('#tick-a')?.textContent) > m, n, { timeout: 3000 });
  });
});

// Stable siblings (views.md §2.3, issue #22): the differ matches unkeyed children by their
// template site, so an `{#if}` in front of an input costs one op and the input is never
// replaced or patched: the same DOM object keeps its text, caret and focus.
describe('compiled app: stable siblings', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);

  it('an {#if} turning on and off before an input: one op per frame, the input object survives', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/anchors');
    suite.open_.push(c);
    await c.page.focus('#field');
    await c.page.keyboard.type('hello');
    await c.page.evaluate(() => { document.querySelector('#field').fzTag = 'same node'; });
    for (const shown of [true, false, true]) {
      const from = c.received.length;
      const acks = () => c.received.slice(from).filter((f) => f.t === 'ack').length;
      // A scripted click leaves the focus in the input.
      await c.page.evaluate(() => document.querySelector('#toggle').click());
      const deadline = Date.now() + 5000;
      while (acks() === 0 && Date.now() < deadline) await sleep(20);
      await c.page.waitForFunction((w) => !!document.querySelector('#note') === w, shown, { timeout: 3000 });
      const patches = c.received.slice(from).filter((f) => f.t === 'patch');
      assert.equal(patches.length, 1, JSON.stringify(c.received.slice(from)));
      assert.equal(patches[0].ops.length, 1, JSON.stringify(patches[0].ops));
      assert.equal(patches[0].ops[0][0], shown ? 'insert' : 'remove', JSON.stringify(patches[0].ops));
      const field = await c.page.evaluate(() => {
        const f = document.querySelector('#field');
        return { tag: f.fzTag, value: f.value, caret: f.selectionStart, focused: document.activeElement === f };
      });
      assert.deepEqual(field, { tag: 'same node', value: 'hello', caret: 5, focused: true });
    }
    await c.page.keyboard.type('!');
    assert.equal(await c.page.inputValue('#field'), 'hello!');
  });
});

describe('compiled app: route values', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);

  it('ctx.params and ctx.query: on the GET render, and again when the socket mounts the view', async () => {
    const html = await (await fetch(suite.app.base + '/where/kitchen%20sink?sort=new')).text();
    assert.match(html, /<p[^>]*id="where"[^>]*>kitchen sink by new<\/p>/);
    const c = await openLive(suite.chrome.browser, suite.app.base, '/where/kitchen%20sink?sort=new');
    suite.open_.push(c);
    await waitText(c, '#where', 'kitchen sink by new (live)');
  });
});

describe('compiled app: an @authenticated page', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);

  it('7. anonymous: 302 to the login path; the user from the cookie is ctx.user; tokens are bound to it', async () => {
    const anon = await fetch(suite.app.base + '/private', { redirect: 'manual', headers: { accept: 'text/html' } });
    assert.equal(anon.status, 302);
    assert.equal(anon.headers.get('location'), '/login?next=/private');

    const context = await suite.chrome.browser.newContext();
    await context.addCookies([{ name: 'user', value: 'ann', url: suite.app.base }]);
    const page = await context.newPage();
    const c = { context, page, problems: [] };
    page.on('pageerror', (e) => c.problems.push('pageerror: ' + e.message));
    suite.open_.push(c);
    await page.goto(suite.app.base + '/private');
    await page.waitForFunction(() => document.querySelector('#fz-1 [data-fz-c]')?.getAttribute('data-fz-c') !== '0');
    assert.equal(await text(c, '#who'), 'ann');  // mounted again over the socket: still ann
    await page.click('#click');
    await waitText(c, '#click', 'clicked 1');

    // Ann's token on a socket with Bob's cookie, or with none: closed with 1008 (policy).
    const ann = await tokenOf(suite.app, '/private', 'user=ann');
    for (const cookie of ['user=bob', undefined]) {
      const s = await rawSocket(suite.app, { cookie });
      s.send({ t: 'join', v: 'fz-1', tok: ann, rev: 0 });
      assert.equal(await s.closed, 1008, String(cookie));
    }
    const own = await rawSocket(suite.app, { cookie: 'user=ann' });
    own.send({ t: 'join', v: 'fz-1', tok: ann, rev: 0 });
    const full = await own.next();
    assert.equal(full.t, 'full');
    assert.match(full.html, />ann</);
    own.ws.close();
    await assert.rejects(rawSocket(suite.app, { origin: 'http://evil.example', cookie: 'user=ann' }), (e) => e.status === 403);
  });
});

describe('compiled app: live roots in a classic page', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);

  it('live_embed: a @get page with two roots, assets once; both join, the first updates, tokens bound to the user', async () => {
    const res = await fetch(suite.app.base + '/embedded', { headers: { cookie: 'user=ann' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^text\/html/);
    const html = await res.text();
    // The first root brings the styles and the client script, before it and once; the second
    // root is only itself.
    assert.match(html, /<h1 id="classic">A classic page<\/h1><style>\.fz-disconnected/);
    assert.equal(html.match(/<script src="\/_fitz\/live\.js\?v=[0-9a-f]{16}" defer><\/script>/g).length, 1);
    assert.equal(html.match(/\.fz-disconnected\{/g).length, 1);
    assert.match(html, /<\/script>\n<div id="fz-1" data-fz-view="Private" data-fz-token="[^"]+"/);
    assert.match(html, /<section id="second"><div id="fz-2" data-fz-view="Escape" data-fz-token="[^"]+"/);
    assert.match(html, /<p[^>]*id="who"[^>]*>ann<\/p>/);  // on mount saw the cookie's user
    assert.match(html, /embedded &lt;b&gt;text&lt;\/b&gt;/);

    const context = await suite.chrome.browser.newContext();
    await context.addCookies([{ name: 'user', value: 'ann', url: suite.app.base }]);
    const page = await context.newPage();
    const c = { context, page, problems: [], sent: [], received: [] };
    page.on('pageerror', (e) => c.problems.push('pageerror: ' + e.message));
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => c.sent.push(JSON.parse(f.payload)));
      ws.on('framereceived', (f) => c.received.push(JSON.parse(f.payload)));
    });
    suite.open_.push(c);
    await page.goto(suite.app.base + '/embedded');
    await page.waitForFunction(() => document.querySelector('#fz-1 [data-fz-c]')?.getAttribute('data-fz-c') !== '0');
    const deadline = Date.now() + 5000;
    while (c.received.filter((f) => f.t === 'full').length < 2 && Date.now() < deadline) await sleep(20);
    assert.deepEqual(c.sent.filter((f) => f.t === 'join').map((f) => f.v).sort(), ['fz-1', 'fz-2']);
    assert.deepEqual(c.received.filter((f) => f.t === 'full').map((f) => f.v).sort(), ['fz-1', 'fz-2']);
    assert.equal(await text(c, '#who'), 'ann');  // mounted again over the socket: still ann
    await page.click('#click');
    await waitText(c, '#click', 'clicked 1');
    assert.equal(await text(c, '#classic'), 'A classic page');  // the handler's markup is left alone
    assert.equal(await text(c, '#shown'), 'embedded <b>text</b>');

    // The first root's token is Ann's: a socket with Bob's cookie cannot join with it.
    const ann = await tokenOf(suite.app, '/embedded', 'user=ann');
    const s = await rawSocket(suite.app, { cookie: 'user=bob' });
    s.send({ t: 'join', v: 'fz-1', tok: ann, rev: 0 });
    assert.equal(await s.closed, 1008);
  });
});

describe('compiled app: reconnect', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  const suite = appSuite(APP);
  const notes = async () => (await fetch(suite.app.base + '/notes.json')).json();

  it('6. offline: fz-disconnected, clicks and a submit do nothing; online: rejoin within 11 s with the current server data', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/notes');
    suite.open_.push(c);
    await c.page.click('#bump');
    await waitText(c, '#bump', 'clicks 1');
    const url = c.page.url();
    const before = await notes();

    await c.context.setOffline(true);
    await c.page.waitForFunction(() => document.querySelector('#fz-1.fz-disconnected'), null, { timeout: 2000 });
    const sentOffline = c.sent.length;
    await c.page.click('#bump');
    await c.page.fill('#note', 'typed offline');
    await c.page.click('#add');
    await c.page.press('#note', 'Enter');
    await sleep(300);
    assert.equal(await text(c, '#bump'), 'clicks 1', 'a click while offline changes nothing');
    assert.equal(c.page.url(), url, 'no native submit while offline');
    assert.equal(c.sent.length, sentOffline, 'nothing sent while offline');
    assert.deepEqual(await notes(), before, 'the offline submit reached no server');

    // The server's data changes meanwhile (another client, over HTTP).
    const added = 'added while away ' + Date.now();
    const post = await fetch(suite.app.base + '/notes?text=' + encodeURIComponent(added), { method: 'POST' });
    assert.equal(post.status, 200);
    await c.context.setOffline(false);
    const t0 = Date.now();
    await c.page.waitForFunction(() => !document.querySelector('.fz-disconnected'), null, { timeout: 11000 });
    assert.ok(Date.now() - t0 < 11000);
    // A fresh mount: the server's current notes, the view's own counter from its start.
    await waitText(c, '#count', (before.length + 1) + ' notes');
    assert.equal(await c.page.evaluate(() => [...document.querySelectorAll('#notes li')].pop()?.textContent), added);
    await waitText(c, '#bump', 'clicks 0');
    assert.equal(c.sent.filter((f) => f.t === 'join').length, 2);

    await c.page.click('#bump');
    await waitText(c, '#bump', 'clicks 1');
    await c.page.fill('#note', 'typed online');
    await c.page.click('#add');
    await waitText(c, '#count', (before.length + 2) + ' notes');
    assert.deepEqual((await notes()).slice(-2), [added, 'typed online']);
    assert.equal(c.page.url(), url);
  });
});

describe('fitz new --template liveviews', { skip: TEMPLATE ? false : 'FITZ_LIVE_TEMPLATE not set' }, () => {
  const suite = appSuite(TEMPLATE);

  it('the generated counter works in a browser as generated', async () => {
    const html = await (await fetch(suite.app.base + '/')).text();
    assert.match(html, /<h1[^>]*>0 clicks<\/h1>/);
    const c = await openLive(suite.chrome.browser, suite.app.base);
    suite.open_.push(c);
    assert.equal(await c.page.isDisabled('#reset'), true);
    await c.page.click('#add');
    await waitText(c, 'h1', '1 click');
    assert.equal(await c.page.isDisabled('#reset'), false);
    await c.page.fill('input[type=number]', '5');
    await c.page.press('input[type=number]', 'Tab');
    await c.page.waitForFunction(() => document.querySelector('#add')?.textContent === '+5');
    await c.page.click('#add');
    await waitText(c, 'h1', '6 clicks');
    await c.page.click('#reset');
    await waitText(c, 'h1', '0 clicks');
    assert.equal(await c.page.isDisabled('#reset'), true);
  });
});
