// Acceptance examples of views.md §5 against apps compiled by `fitz build`: examples/live-views
// (FITZ_LIVE_EXAMPLE: counter, live search, sign-up form) and tests/live/app (FITZ_LIVE_APP:
// keyed list, XSS, failing handler, child components, async handlers), the generated view classes,
// @live pages and the runtime together, in a real Chromium. Skipped when those are not set (scripts/test-browser.sh builds
// both when FITZ_BIN is set). The sign-up form stores its row in FITZ_TEST_DATABASE_URL.
'use strict';

const { describe, it: nodeIt } = require('node:test');
const assert = require('node:assert/strict');
const { sleep } = require('../support/harness');
const { appSuite, openLive } = require('../support/apps');

const it = (name, fn) => nodeIt(name, { timeout: 20000 }, fn);
const APP = process.env.FITZ_LIVE_APP;
const EXAMPLE = process.env.FITZ_LIVE_EXAMPLE;
const DB = process.env.FITZ_TEST_DATABASE_URL;

describe('compiled example: examples/live-views', { skip: EXAMPLE ? false : 'FITZ_LIVE_EXAMPLE not set' }, () => {
  const suite = appSuite(EXAMPLE, DB ? { DATABASE_URL: DB } : {});
  const open_ = suite.open_;

  it('1. counter: SSR, one text patch per click, no navigation, tabs independent', async () => {
    const html = await (await fetch(suite.app.base + '/')).text();
    assert.match(html, /Count: 0/);
    assert.match(html, /<script src="\/_fitz\/live\.js\?v=[0-9a-f]{16}" defer><\/script>/);
    assert.match(html, /\.counter\[data-s-[0-9a-f]{8}\]/);  // the scoped style, in <head>

    const a = await openLive(suite.chrome.browser, suite.app.base); open_.push(a);
    const b = await openLive(suite.chrome.browser, suite.app.base); open_.push(b);
    const before = a.received.length;
    const entries = await a.page.evaluate(() => history.length);
    for (let i = 1; i <= 3; i++) {
      await a.page.click('#inc');
      await a.page.waitForFunction((n) => document.querySelector('#count')?.textContent === 'Count: ' + n, i);
    }
    const patches = a.received.slice(before).filter((f) => f.t === 'patch');
    assert.equal(patches.length, 3);
    for (const p of patches) assert.deepEqual(p.ops.map((o) => o[0]), ['text']);
    assert.equal(await a.page.evaluate(() => history.length), entries);
    await a.page.click('#add');  // a typed argument from data-fz-args
    await a.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 13');

    assert.equal(await b.page.textContent('#count'), 'Count: 0');
    await b.page.click('#inc');
    await b.page.waitForFunction(() => document.querySelector('#count')?.textContent === 'Count: 1');
    assert.equal(await a.page.textContent('#count'), 'Count: 13');
  });

  it('2. live search: one debounced event, focus and text kept, clearing restores all', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/search'); open_.push(c);
    assert.equal(await c.page.locator('#results li').count(), 20);
    await c.page.focus('#q');
    await c.page.keyboard.type('ap', { delay: 50 });
    await c.page.waitForFunction(() => document.querySelector('#n')?.textContent === '5 shown');
    await sleep(400);
    const evs = c.sent.filter((f) => f.t === 'ev');
    assert.equal(evs.length, 1);
    assert.equal(evs[0].p.value, 'ap');
    const shown = await c.page.locator('#results li').allTextContents();
    assert.deepEqual(shown, ['apple', 'apricot', 'grape', 'grapefruit', 'papaya']);
    assert.equal(await c.page.evaluate(() => document.activeElement.id), 'q');
    assert.equal(await c.page.inputValue('#q'), 'ap');
    assert.equal(await c.page.evaluate(() => document.querySelector('#q').selectionStart), 2);
    await c.page.fill('#q', '');
    await c.page.waitForFunction(() => document.querySelectorAll('#results li').length === 20);
  });

  it('4. sign-up form: per-field errors, values kept, no reload; a valid one is stored and redirects', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/signup'); open_.push(c);
    const entries = await c.page.evaluate(() => history.length);
    await c.page.fill('#email', 'not-an-email');
    await c.page.focus('#email');
    await c.page.keyboard.press('Enter');  // an implicit submit, with no name
    await c.page.waitForSelector('#name-error');
    assert.equal(await c.page.textContent('#name-error'), 'a name is required');
    assert.equal(await c.page.textContent('#email-error'), 'that is not an email address');
    assert.equal(await c.page.inputValue('#email'), 'not-an-email');
    assert.equal(await c.page.evaluate(() => document.activeElement.id), 'email');
    assert.equal(c.page.url(), suite.app.base + '/signup');
    assert.equal(await c.page.evaluate(() => history.length), entries);
    // Fixing the email clears its error on change.
    await c.page.fill('#email', 'ada-' + Date.now() + '@example.com');
    await c.page.focus('#name');
    await c.page.waitForFunction(() => !document.querySelector('#email-error'));
    assert.equal(await c.page.textContent('#name-error'), 'a name is required');
    await c.page.fill('#name', 'Ada');
    const email = await c.page.inputValue('#email');
    await c.page.click('#go');
    await c.page.waitForURL(suite.app.base + '/welcome');
    assert.equal(await c.page.textContent('#welcome'), 'Welcome!');
    // The same email again is refused, in place.
    const again = await openLive(suite.chrome.browser, suite.app.base, '/signup'); open_.push(again);
    await again.page.fill('#name', 'Ada');
    await again.page.fill('#email', email);
    await again.page.click('#go');
    await again.page.waitForSelector('#failed');
    assert.match(await again.page.textContent('#failed'), /has signed up already/);
  });
});

describe('compiled test app: tests/live/app', { skip: APP ? false : 'FITZ_LIVE_APP not set' }, () => {
  // One event loop: a handler that stalled it would hold up the other tab and the GET below.
  const suite = appSuite(APP, { FITZ_HTTP_THREADS: '1' });
  const open_ = suite.open_;

  it('5. keyed list: moving a row keeps its DOM node and sends one kmove', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/rows'); open_.push(c);
    await c.page.fill('#in-2', 'typed');
    await c.page.evaluate(() => { document.querySelector('#in-2').fzTag = 'same node'; });
    const before = c.received.length;
    await c.page.click('#up-3');
    await c.page.waitForFunction(() => [...document.querySelectorAll('#rows li')].map((l) => l.id).join() === 'row-1,row-3,row-2,row-4');
    assert.equal(await c.page.evaluate(() => document.querySelector('#in-2').fzTag), 'same node');
    assert.equal(await c.page.inputValue('#in-2'), 'typed');
    const patches = c.received.slice(before).filter((f) => f.t === 'patch');
    assert.equal(patches.length, 1);
    assert.deepEqual(patches[0].ops.map((o) => o[0]), ['kmove']);
  });

  it('8. XSS: a hostile string shows literally, a javascript: URL renders as #', async () => {
    const evil = '"><img src=x onerror=alert(1)>';
    const c = await openLive(suite.chrome.browser, suite.app.base, '/escape'); open_.push(c);
    assert.equal(await c.page.textContent('#shown'), evil);
    assert.equal(await c.page.getAttribute('#shown', 'title'), evil);
    assert.equal(await c.page.locator('img').count(), 0);
    assert.equal(await c.page.getAttribute('#link', 'href'), '#');
    const q = await openLive(suite.chrome.browser, suite.app.base, '/escape?text=' + encodeURIComponent('<b>x</b>')); open_.push(q);
    assert.equal(await q.page.textContent('#shown'), '<b>x</b>');
    assert.equal(await q.page.locator('#shown b').count(), 0);
  });

  it('child components: a click on a child changes its state; emit and slot content reach the parent', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/board'); open_.push(c);
    const number = (sel) => c.page.getAttribute(sel, 'data-fz-c');
    const board = await number('#board');
    const first = await number('#tally-first');
    assert.notEqual(first, board);
    assert.notEqual(await number('#tally-a'), first);
    assert.equal(await number('#extra'), board);  // slot content runs in the parent's scope
    await c.page.click('#tally-first .inc');
    await c.page.waitForFunction(() => document.querySelector('#tally-first .n')?.textContent === '1');
    assert.ok(c.sent.some((f) => f.t === 'ev' && f.e === 'inc' && String(f.c) === first));
    assert.equal(await c.page.textContent('#tally-a .n'), '0');
    await c.page.click('#bump');
    await c.page.waitForFunction(() => document.querySelector('#extra')?.textContent === 'bumps 1');
    assert.equal(await c.page.textContent('#tally-first .n'), '1');
    await c.page.click('#tally-a .pick');
    await c.page.waitForFunction(() => document.querySelector('#chosen')?.textContent === 'a=0');
    // Hidden, then shown again: a new instance (new number, fresh state) whose clicks work.
    await c.page.click('#toggle');
    await c.page.waitForFunction(() => !document.querySelector('#tally-first'));
    await c.page.click('#toggle');
    await c.page.waitForFunction(() => document.querySelector('#tally-first .n')?.textContent === '0');
    assert.notEqual(await number('#tally-first'), first);
    await c.page.click('#tally-first .inc');  // its `step` prop is the parent's bumps + 1
    await c.page.waitForFunction(() => document.querySelector('#tally-first .n')?.textContent === '2');
    assert.ok(!c.received.some((f) => f.t === 'error'));
  });

  it('10. a failing handler: error toast, state unchanged, later clicks work', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/flaky'); open_.push(c);
    await c.page.click('#boom');
    await c.page.waitForSelector('.fz-toast');
    assert.ok(c.received.some((f) => f.t === 'error'));
    assert.equal(await c.page.textContent('#count'), '0');
    await c.page.click('#inc');
    await c.page.waitForFunction(() => document.querySelector('#count')?.textContent === '1');
  });

  it('async handler: a slow event blocks neither another tab nor the server; its result, then the events behind it, arrive', async () => {
    const a = await openLive(suite.chrome.browser, suite.app.base, '/slow?delay=2000'); open_.push(a);
    const b = await openLive(suite.chrome.browser, suite.app.base, '/slow?delay=2000'); open_.push(b);
    await a.page.waitForFunction(() => Number(document.querySelector('#ticks')?.textContent) >= 2);
    const t0 = Date.now();
    await a.page.click('#save');
    await a.page.click('#click');  // this view's next event: it waits behind the save
    await b.page.click('#click');
    await b.page.waitForFunction(() => document.querySelector('#clicks')?.textContent === '1');
    const page = await fetch(suite.app.base + '/rows');
    assert.equal(page.status, 200);
    assert.ok(Date.now() - t0 < 1500, 'another tab and a GET were served while the save awaited');
    // Nothing of the half-done handler shows, though the view's timer keeps ticking meanwhile,
    // and the save is still pending.
    await sleep(600);
    const ticking = Number(await a.page.textContent('#ticks'));
    assert.equal(await a.page.textContent('#saved'), '0');
    assert.equal(await a.page.textContent('#steps'), '');
    assert.equal(await a.page.evaluate(() => document.querySelector('#save').classList.contains('fz-pending')), true);
    await a.page.waitForFunction(() => document.querySelector('#saved')?.textContent === '1', null, { timeout: 6000 });
    assert.ok(Date.now() - t0 >= 1900, 'the save took its time');
    assert.equal(await a.page.textContent('#steps'), 'started,saved');
    await a.page.waitForFunction(() => document.querySelector('#clicks')?.textContent === '1');
    // The ticks that came during the save ran after it, not on a state the save then overwrote.
    assert.ok(Number(await a.page.textContent('#ticks')) >= ticking, 'no tick lost to the save');
    // Acked in the order sent, each after its patch.
    const refs = a.sent.filter((f) => f.t === 'ev').map((f) => f.ref);
    const acks = a.received.filter((f) => f.t === 'ack').map((f) => f.ref);
    assert.deepEqual(acks, refs);
    assert.equal(await a.page.evaluate(() => document.querySelector('#save').classList.contains('fz-pending')), false);
  });

  it('async handler failing after its await: error toast, state rolled back; an async page function renders', async () => {
    const c = await openLive(suite.chrome.browser, suite.app.base, '/slow?delay=10'); open_.push(c);
    await c.page.click('#fail');
    await c.page.waitForSelector('.fz-toast');
    assert.ok(c.received.some((f) => f.t === 'error'));
    assert.equal(await c.page.textContent('#saved'), '0');
    assert.equal(await c.page.textContent('#steps'), '');
    await c.page.click('#save');
    await c.page.waitForFunction(() => document.querySelector('#saved')?.textContent === '1');
    const p = await openLive(suite.chrome.browser, suite.app.base, '/slow-page'); open_.push(p);
    await p.page.click('#save');
    await p.page.waitForFunction(() => document.querySelector('#saved')?.textContent === '1');
  });
});
