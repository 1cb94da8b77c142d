// Events in a real Chromium: what live.js sends as `ev` frames for clicks, forms, typing and
// bindings (views.md §1.4, §2.4), checked against a scripted WebSocket peer.
'use strict';

const { describe } = require('node:test');
const assert = require('node:assert/strict');
const { serve, open, sleep, pageSuite } = require('../support/harness');

const { t, it, start } = pageSuite();


describe('events', () => {
  it('click sends ev with the handler, component number and render-time args', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="Todos" data-fz-token="T1"><ul data-fz-c="4">' +
      '<li data-fz-c="17"><button data-fz-on-click="remove" data-fz-args=\'{"id":"3"}\'><b>x</b></button></li>' +
      '<li><a href="/elsewhere" data-fz-on-click="open" data-fz-args=\'{"n":7}\'>open</a></li>' +
      '</ul></div>');
    const url = page.url();
    await page.click('li b');   // the click lands on a child of the button: delegation finds it
    const ev = await peer.waitFrame('ev');
    assert.deepEqual({ ...ev }, { t: 'ev', v: 'fz-1', ref: ev.ref, c: 17, e: 'remove', p: { id: '3' } });
    assert.equal(typeof ev.ref, 'number');
    await page.click('a');
    const ev2 = await peer.waitFrame('ev', (f) => f.e === 'open');
    assert.equal(ev2.c, 4, 'the closest ancestor carries the component number');
    assert.deepEqual(ev2.p, { n: '7' }, 'payload values are strings');
    assert.notEqual(ev2.ref, ev.ref);
    assert.equal(page.url(), url, 'a link with @click does not navigate');
  });

  it('payload: form fields, then value, then key, then args; groups joined with ","', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="F" data-fz-token="T" data-fz-c="1"><form>' +
      '<input name="title" value="hello">' +
      '<input type="checkbox" name="tags" value="a" checked><input type="checkbox" name="tags" value="b">' +
      '<input type="checkbox" name="tags" value="c" checked>' +
      '<input type="checkbox" name="none" value="z">' +
      '<input type="radio" name="size" value="s"><input type="radio" name="size" value="m" checked>' +
      '<select name="fruit" multiple><option selected>apple</option><option>pear</option><option selected>plum</option></select>' +
      '<input name="id" value="from-form"><input name="off" value="x" disabled>' +
      '<button type="button" value="btn" data-fz-on-click="save" data-fz-include-form data-fz-args=\'{"id":"9"}\'>save</button>' +
      '<input type="checkbox" id="solo" value="yes" data-fz-on-change="toggle">' +
      '</form></div>');
    await page.click('button');
    const ev = await peer.waitFrame('ev', (f) => f.e === 'save');
    assert.deepEqual(ev.p, {
      title: 'hello', tags: 'a,c', none: '', size: 'm', fruit: 'apple,plum',
      id: '9',            // render-time args win over the form field of the same name
      value: 'btn',
    });
    await page.click('#solo');
    const on = await peer.waitFrame('ev', (f) => f.e === 'toggle');
    assert.deepEqual(on.p, { value: 'yes' });
    await page.click('#solo');
    const off = await peer.waitFor(() => peer.sent('ev').filter((f) => f.e === 'toggle')[1], 'second toggle');
    assert.deepEqual(off.p, { value: '' }, 'an unchecked checkbox sends ""');
  });

  it('debounce 300: typing "ap" 50 ms apart sends exactly one ev 300 ms after the last key', async () => {
    // On the fake clock, so "50 ms apart" and "300 ms after" are the page's time however busy
    // the machine is.
    t.srv = await serve({ '/':
      '<div id="fz-1" data-fz-view="Search" data-fz-token="T"><input id="q" data-fz-on-input="search" data-fz-debounce="300"></div>' });
    t.ctx = await open(t.chrome.browser, t.srv.base, '/', { clock: true });
    const { peer } = t.srv;
    const { page } = t.ctx;
    await peer.waitFrame('join');
    await page.focus('#q');
    await page.keyboard.type('a');
    await page.clock.runFor(50);
    await page.keyboard.type('p');
    await page.clock.runFor(290);
    await sleep(100);
    assert.equal(peer.sent('ev').length, 0, 'nothing until 300 ms after the last key');
    await page.clock.runFor(20);
    const ev = await peer.waitFrame('ev');
    assert.deepEqual(ev.p, { value: 'ap' });
    await page.clock.runFor(1000);
    await sleep(100);
    assert.equal(peer.sent('ev').length, 1, 'exactly one ev');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'q');
  });

  it('keys filter: only the listed keys send, with the key in the payload', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="Chat" data-fz-token="T"><input id="m" data-fz-on-keydown="line" data-fz-keys="Enter,Escape"></div>');
    await page.focus('#m');
    await page.keyboard.type('ab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('x');
    await page.keyboard.press('Escape');
    await peer.waitFor(() => peer.sent('ev').length >= 2, 'two evs');
    await sleep(150);
    const evs = peer.sent('ev');
    assert.deepEqual(evs.map((f) => f.p), [{ value: 'ab', key: 'Enter' }, { value: 'abx', key: 'Escape' }]);
  });

  it('throttle: a burst sends the first event at once and the last one at the end of the window', async () => {
    // On the fake clock: the window is the page's time, not when frames reach the peer, which a
    // busy machine delays by hundreds of milliseconds.
    t.srv = await serve({ '/':
      '<div id="fz-1" data-fz-view="T" data-fz-token="T"><button data-fz-on-click="inc" data-fz-throttle="400">+</button></div>' });
    t.ctx = await open(t.chrome.browser, t.srv.base, '/', { clock: true });
    const { peer } = t.srv;
    const { page } = t.ctx;
    await peer.waitFrame('join');
    // Five clicks in one task: a burst however slow the machine is.
    await page.$eval('button', (b) => { for (let i = 0; i < 5; i++) b.click(); });
    await peer.waitFor(() => peer.sent('ev').length >= 1, 'leading ev');
    await page.clock.runFor(390);
    await sleep(100);
    assert.equal(peer.sent('ev').length, 1, 'nothing more inside the window');
    await page.clock.runFor(20);
    await peer.waitFor(() => peer.sent('ev').length >= 2, 'trailing ev', 5000);
    await page.clock.runFor(1000);
    await sleep(100);
    assert.equal(peer.sent('ev').length, 2, 'leading and trailing only');
  });

  it('submit: fields sent, never navigates, pending until ack, clear-on-submit', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="Chat" data-fz-token="T" data-fz-c="2">' +
      '<form action="/nowhere" method="get" data-fz-on-submit="send">' +
      '<input name="name" value="Ann"><input name="text" id="text" data-fz-clear-on-submit>' +
      '<button id="go">send</button></form></div>');
    const url = page.url();
    const entries = await page.evaluate(() => history.length);
    await page.fill('#text', 'hi');
    await page.press('#text', 'Enter');
    const ev = await peer.waitFrame('ev');
    assert.deepEqual({ ...ev }, { t: 'ev', v: 'fz-1', ref: ev.ref, c: 2, e: 'send', p: { name: 'Ann', text: 'hi' } });
    assert.equal(await page.inputValue('#text'), '', 'clear-on-submit empties the input');
    assert.equal(await page.$eval('form', (f) => f.classList.contains('fz-pending')), true);
    assert.equal(await page.$eval('#go', (b) => b.disabled), true, 'submit button disabled until ack');
    await page.click('#go', { force: true });
    await sleep(100);
    assert.equal(peer.sent('ev').length, 1, 'no second submit while the first is pending: ' + JSON.stringify(peer.sent('ev')));
    peer.send({ t: 'ack', ref: ev.ref });
    await page.waitForFunction(() => !document.querySelector('form').classList.contains('fz-pending'));
    assert.equal(await page.$eval('#go', (b) => b.disabled), false);
    await page.click('#go');
    await peer.waitFor(() => peer.sent('ev').length === 2, 'second submit');
    assert.equal(page.url(), url, 'the URL never changed');
    assert.equal(await page.evaluate(() => history.length), entries, 'no navigation entry added');
  });

  it('bind: value and checked bindings send fz:bind with the field name', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="B" data-fz-token="T" data-fz-c="5">' +
      '<input id="d" data-fz-bind="value:draft" data-fz-debounce="100">' +
      '<input id="f" type="checkbox" data-fz-bind="checked:done"></div>');
    await page.fill('#d', 'milk');
    const ev = await peer.waitFrame('ev');
    assert.deepEqual({ ...ev }, { t: 'ev', v: 'fz-1', ref: ev.ref, c: 5, e: 'fz:bind', p: { field: 'draft', value: 'milk' } });
    await page.check('#f');
    const ev2 = await peer.waitFrame('ev', (f) => f.p.field === 'done');
    assert.deepEqual(ev2.p, { field: 'done', value: 'true' });
  });

  it('focus and blur send their handlers', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="B" data-fz-token="T"><input id="a" data-fz-on-focus="enter" data-fz-on-blur="leave"><input id="b"></div>');
    await page.focus('#a');
    await page.focus('#b');
    await peer.waitFor(() => peer.sent('ev').length >= 2, 'focus and blur');
    assert.deepEqual(peer.sent('ev').map((f) => f.e), ['enter', 'leave']);
  });

  it('two contexts: each tab has its own socket and receives only its own frames', async () => {
    const body = '<div id="fz-1" data-fz-view="Counter" data-fz-token="T"><p>Count: 0</p>' +
      '<button data-fz-on-click="inc">+</button></div>';
    const { peer, page } = await start(body);
    const second = await open(t.chrome.browser, t.srv.base);
    try {
      await peer.waitFor(() => peer.conns.length === 2 && peer.sent('join').length === 2, 'second join');
      await second.page.click('button');
      const ev = await peer.waitFrame('ev');
      assert.equal(ev.conn, 1, 'the click arrived on the second tab\'s socket');
      peer.patch('fz-1', [['text', [0, 0], 'Count: 1']], peer.conns[1]);
      await second.page.waitForFunction(() => document.querySelector('p')?.textContent === 'Count: 1');
      assert.equal(await page.textContent('p'), 'Count: 0', 'the first tab is unaffected');
      assert.deepEqual(second.problems, []);
    } finally {
      await second.context.close();
    }
  });
});
