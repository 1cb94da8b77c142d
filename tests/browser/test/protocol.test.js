// The socket protocol in a real Chromium (views.md §2): joins, patch ops, morphing `full`
// frames, revisions and resync, acks, errors, redirects, reconnects, and escaping.
'use strict';

const { describe } = require('node:test');
const assert = require('node:assert/strict');
const { serve, open, sleep, pageSuite } = require('../support/harness');

const { t, it, start } = pageSuite();


const root = (page, id = 'fz-1') => page.$eval('#' + id, (r) => r.innerHTML);
const waitHtml = (page, html, id = 'fz-1') =>
  page.waitForFunction(([i, h]) => document.getElementById(i)?.innerHTML === h, [id, html], { timeout: 3000 })
    .catch(async () => assert.equal(await root(page, id), html));

describe('protocol', () => {
  it('joins every root with its token over one socket, with no CSP violation', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="tok-one">a</div>' +
      '<div id="fz-2" data-fz-view="B" data-fz-token="tok-two" data-fz-rev="4">b</div>' +
      '<div id="fz-3" data-fz-view="C">no token: not a live root</div>', 2);
    await sleep(200);
    assert.deepEqual(peer.sent('join').map((f) => ({ ...f })), [
      { t: 'join', v: 'fz-1', tok: 'tok-one', rev: 0 },
      { t: 'join', v: 'fz-2', tok: 'tok-two', rev: 4 },
    ]);
    assert.equal(peer.conns.length, 1, 'one WebSocket per page');
    assert.equal(await page.evaluate(() => document.querySelectorAll('.fz-disconnected').length), 0);
  });

  it('applies every op kind in order', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="T">' +
      '<p class="x" title="t">old</p>' +
      '<input id="i" value="v">' +
      '<span>gone</span>' +
      '<ul><li data-fz-key="a">A</li><li data-fz-key="b">B</li><li data-fz-key="c">C</li></ul>' +
      '<div><em>replace me</em></div>' +
      '</div>');
    peer.patch('fz-1', [
      ['text', [0, 0], 'new'],
      ['attr', [0], 'class', 'y'],
      ['rmattr', [0], 'title'],
      ['prop', [1], 'value', 'typed-by-server'],
      ['remove', [2]],                                   // children shift: ul is now [2]
      ['kmove', [2], 'c', 'a'],                          // c a b
      ['kremove', [2], 'a'],                             // c b
      ['kinsert', [2], '<li data-fz-key="d">D</li>', 'b'],  // c d b
      ['kinsert', [2], '<li data-fz-key="e">E</li>', null], // c d b e
      ['text', [2, { k: 'd' }, 0], 'D2'],
      ['replace', [3, 0], '<strong>replaced</strong>'],
      ['insert', [3], 0, '<i>first</i>'],
      ['insert', [], 4, '<footer>end</footer>'],
    ]);
    await waitHtml(page,
      '<p class="y">new</p><input id="i" value="v">' +
      '<ul><li data-fz-key="c">C</li><li data-fz-key="d">D2</li><li data-fz-key="b">B</li><li data-fz-key="e">E</li></ul>' +
      '<div><i>first</i><strong>replaced</strong></div><footer>end</footer>');
    assert.equal(await page.inputValue('#i'), 'typed-by-server');
    await sleep(100);
    assert.equal(peer.sent('resync').length, 0);
  });

  it('prop skips the focused control unless forced; checked and selected too', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="T"><input id="i"><input id="c" type="checkbox">' +
      '<select id="s"><option>a</option><option>b</option></select></div>');
    await page.fill('#i', 'mine');
    peer.patch('fz-1', [['prop', [0], 'value', 'server'], ['prop', [1], 'checked', true], ['prop', [2, 1], 'selected', true]]);
    await page.waitForFunction(() => document.getElementById('c')?.checked);
    assert.equal(await page.inputValue('#i'), 'mine', 'the focused input keeps what the user typed');
    assert.equal(await page.inputValue('#s'), 'b');
    peer.patch('fz-1', [['prop', [0], 'value', '', true]]);
    await page.waitForFunction(() => document.getElementById('i')?.value === '');
  });

  it('kmove keeps the same DOM node, its text and its focus', async () => {
    const rows = ['1', '2', '3'].map((k) => `<li data-fz-key="${k}"><input id="in${k}"></li>`).join('');
    const { peer, page } = await start(`<div id="fz-1" data-fz-view="L" data-fz-token="T"><ul>${rows}</ul></div>`);
    await page.evaluate(() => { document.getElementById('in2').tagged = 'row-2'; });
    await page.fill('#in2', 'hello');
    await page.evaluate(() => document.getElementById('in2').setSelectionRange(2, 2));
    peer.patch('fz-1', [['kmove', [0], '3', '2']]);       // row 3 moves up: 1 3 2
    peer.patch('fz-1', [['kmove', [0], '2', '1']]);       // the focused row itself moves: 2 1 3
    await page.waitForFunction(() => [...document.querySelectorAll('li')].map((l) => l.dataset.fzKey).join() === '2,1,3');
    const state = await page.evaluate(() => {
      const el = document.activeElement;
      return { tagged: el.tagged, id: el.id, value: el.value, caret: el.selectionStart };
    });
    assert.deepEqual(state, { tagged: 'row-2', id: 'in2', value: 'hello', caret: 2 });
  });

  it('full morphs: the focused input keeps value and caret, keyed nodes are kept', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="S" data-fz-token="T"><input id="q" value=""><p>all</p>' +
      '<ul><li data-fz-key="a">apple</li><li data-fz-key="b">banana</li></ul></div>');
    await page.evaluate(() => {
      document.querySelector('[data-fz-key=b]').tagged = 'b';
      document.querySelector('p').tagged = 'p';
    });
    await page.fill('#q', 'hello');
    await page.evaluate(() => document.getElementById('q').setSelectionRange(2, 3));
    peer.full('fz-1', '<input id="q" value="server"><p>filtered</p>' +
      '<ul><li data-fz-key="c">cherry</li><li data-fz-key="b">banana!</li></ul><footer>new</footer>', peer.last, 9);
    await page.waitForFunction(() => document.querySelector('footer'));
    const state = await page.evaluate(() => {
      const q = document.getElementById('q');
      return {
        focused: document.activeElement === q, value: q.value, sel: [q.selectionStart, q.selectionEnd],
        p: document.querySelector('p').tagged, b: document.querySelector('[data-fz-key=b]').tagged,
        keys: [...document.querySelectorAll('li')].map((l) => l.dataset.fzKey + ':' + l.textContent).join(),
      };
    });
    assert.deepEqual(state, { focused: true, value: 'hello', sel: [2, 3], p: 'p', b: 'b', keys: 'c:cherry,b:banana!' });
    assert.equal(await page.textContent('p'), 'filtered');
    // The full set the revision: the next patch must be rev 10.
    peer.patch('fz-1', [['text', [1, 0], 'rev10']], peer.last, 10);
    await page.waitForFunction(() => document.querySelector('p')?.textContent === 'rev10');
  });

  it('full morph: unfocused controls follow the rendered value only where it changed', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="F" data-fz-token="T"><input id="a" value="one"><input id="b" value="x">' +
      '<select id="s"><option>p</option><option selected>q</option></select><button id="f">f</button></div>');
    await page.fill('#b', 'typed before join');   // typed while the socket was connecting
    await page.focus('#f');
    peer.full('fz-1', '<input id="a" value="two"><input id="b" value="x">' +
      '<select id="s"><option selected>p</option><option>q</option></select><button id="f">f</button>');
    await page.waitForFunction(() => document.getElementById('a')?.value === 'two');
    assert.equal(await page.inputValue('#b'), 'typed before join');
    assert.equal(await page.inputValue('#s'), 'p');
  });

  it('a bad rev or a failing op drops the frame and sends resync until the next full', async () => {
    const { peer, page } = await start('<div id="fz-1" data-fz-view="A" data-fz-token="T"><p>zero</p><b>b</b></div>');
    peer.patch('fz-1', [['text', [0, 0], 'one']], peer.last, 1);
    await page.waitForFunction(() => document.querySelector('p')?.textContent === 'one');
    peer.patch('fz-1', [['text', [0, 0], 'skipped ahead']], peer.last, 3);    // rev 2 missing
    await peer.waitFrame('resync');
    assert.deepEqual({ ...peer.sent('resync')[0] }, { t: 'resync', v: 'fz-1' });
    peer.patch('fz-1', [['text', [0, 0], 'stale']], peer.last, 2);             // dropped: awaiting full
    await sleep(150);
    assert.equal(await page.textContent('p'), 'one');
    assert.equal(peer.sent('resync').length, 1, 'one resync per gap');
    peer.full('fz-1', '<p>full</p><b>b</b>', peer.last, 5);
    peer.patch('fz-1', [['text', [1, 0], 'B'], ['text', [7, 7], 'no such node']], peer.last, 6);
    await peer.waitFor(() => peer.sent('resync').length === 2, 'second resync');
    peer.patch('fz-1', [['text', [0, 0], 'after']], peer.last, 7);           // rev 6 failed: 7 is a gap
    await sleep(150);
    assert.equal(await page.textContent('p'), 'full');
    peer.full('fz-1', '<p>again</p><b>b</b>', peer.last, 20);
    peer.patch('fz-1', [['text', [0, 0], 'twenty-one']], peer.last, 21);
    await page.waitForFunction(() => document.querySelector('p')?.textContent === 'twenty-one');
  });

  it('ack clears fz-pending; error shows a toast (msg or generic) and clears pending', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="T"><button id="a" data-fz-on-click="ok">a</button>' +
      '<button id="b" data-fz-on-click="boom">b</button></div>');
    await page.click('#a');
    const ev = await peer.waitFrame('ev');
    assert.equal(await page.$eval('#a', (b) => b.classList.contains('fz-pending')), true);
    peer.send({ t: 'ack', ref: ev.ref });
    await page.waitForFunction(() => !document.getElementById('a').classList.contains('fz-pending'));
    await page.click('#b');
    const ev2 = await peer.waitFrame('ev', (f) => f.e === 'boom');
    peer.send({ t: 'error', v: 'fz-1', ref: ev2.ref, code: 'handler', msg: 'boom at <b>Counter.fitzv:12</b>' });
    const toast = await page.waitForSelector('.fz-toast');
    assert.equal(await toast.textContent(), 'boom at <b>Counter.fitzv:12</b>', 'message shown as text');
    assert.equal(await page.$eval('#b', (b) => b.classList.contains('fz-pending')), false);
    assert.equal(await page.$$eval('.fz-toast b', (bs) => bs.length), 0);
    peer.send({ t: 'error', v: 'fz-1', ref: 99, code: 'handler' });          // prod: no msg
    await page.waitForFunction(() => document.querySelectorAll('.fz-toast').length === 2);
    assert.match(await page.$$eval('.fz-toast', (ts) => ts[1].textContent), /went wrong/);
  });

  it('a text op with markup renders literally (no element, no script)', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="Chat" data-fz-token="T"><p>msg</p><a href="/x">link</a></div>');
    const evil = '"><img src=x onerror="document.title=\'pwned\'"><b>x</b>';
    peer.patch('fz-1', [['text', [0, 0], evil], ['attr', [1], 'title', evil], ['attr', [1], 'onclick', 'alert(1)']]);
    await peer.waitFrame('resync');   // the onclick attr op is refused, so the frame resyncs
    assert.equal(await page.textContent('p'), evil);
    assert.equal(await page.$$eval('#fz-1 img, #fz-1 b', (els) => els.length), 0);
    assert.equal(await page.getAttribute('a', 'title'), evil);
    assert.equal(await page.getAttribute('a', 'onclick'), null);
    await sleep(100);
    assert.notEqual(await page.title(), 'pwned');
  });

  it('redirect navigates and stops reconnecting; reload reloads', async () => {
    const { peer, page } = await start('<div id="fz-1" data-fz-view="A" data-fz-token="T">x</div>');
    peer.send({ t: 'redirect', to: 'javascript:alert(1)' });   // refused: not http(s)
    await sleep(100);
    peer.send({ t: 'redirect', to: '/welcome' });
    await page.waitForURL(t.srv.base + '/welcome');
    assert.equal(await page.textContent('h1'), 'welcome');
    assert.equal(peer.conns.length, 1);
    await page.goto(t.srv.base + '/');
    await peer.waitFor(() => peer.conns.length === 2 && peer.sent('join').length === 2, 'join after goto');
    peer.send({ t: 'reload' });
    await peer.waitFor(() => peer.conns.length === 3 && peer.sent('join').length === 3, 'join after reload');
  });

  it('disconnect: fz-disconnected, nothing sent, submit never navigates; reconnect rejoins every root', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="tok-a"><button data-fz-on-click="inc">+</button></div>' +
      '<div id="fz-2" data-fz-view="B" data-fz-token="tok-b"><form action="/welcome" data-fz-on-submit="save">' +
      '<input name="n" id="n"><button id="go">go</button></form></div>', 2);
    const url = page.url();
    peer.refuse = true;
    peer.last.terminate();
    await page.waitForFunction(() => document.querySelectorAll('.fz-disconnected').length === 2);
    await page.click('button[data-fz-on-click]');
    await page.fill('#n', 'x');
    await page.press('#n', 'Enter');
    await page.click('#go');
    await sleep(300);
    assert.equal(page.url(), url, 'no native submit while disconnected');
    assert.equal(peer.sent('ev').length, 0, 'nothing sent while disconnected');
    assert.equal(await page.$eval('form', (f) => f.classList.contains('fz-pending')), false);
    peer.refuse = false;
    const t0 = Date.now();
    await peer.waitFor(() => peer.sent('join').length === 4, 'rejoin', 11000);
    assert.ok(Date.now() - t0 < 11000);
    assert.deepEqual(peer.sent('join').slice(2).map((f) => [f.v, f.tok, f.conn]),
      [['fz-1', 'tok-a', peer.conns.length - 1], ['fz-2', 'tok-b', peer.conns.length - 1]]);
    await page.waitForFunction(() => document.querySelectorAll('.fz-disconnected').length === 0);
    await page.click('button[data-fz-on-click]');
    await peer.waitFrame('ev');
  });
  it('browser offline (as CDP emulates it): disconnected at once, clicks dropped; online: rejoin', async () => {
    const { peer, page } = await start(
      '<div id="fz-1" data-fz-view="A" data-fz-token="T"><button data-fz-on-click="inc">+</button></div>');
    await t.ctx.context.setOffline(true);
    await page.waitForFunction(() => document.querySelector('#fz-1.fz-disconnected'), null, { timeout: 2000 });
    await page.click('button');
    await sleep(200);
    assert.equal(peer.sent('ev').length, 0);
    await t.ctx.context.setOffline(false);
    await peer.waitFor(() => peer.sent('join').length === 2, 'rejoin', 3000);
    await page.waitForFunction(() => !document.querySelector('.fz-disconnected'));
    await page.click('button');
    const ev = await peer.waitFrame('ev');
    assert.equal(ev.conn, peer.conns.length - 1, 'sent on the new socket');
  });
});

describe('timers (fake clock)', () => {
  it('heartbeat every 25 s; reconnect backoff doubles from 200 ms to a 10 s cap with jitter', async () => {
    t.srv = await serve({ '/': '<div id="fz-1" data-fz-view="A" data-fz-token="T">x</div>' });
    t.ctx = await open(t.chrome.browser, t.srv.base, '/', { clock: true });
    const { peer } = t.srv;
    const clock = t.ctx.page.clock;
    await peer.waitFrame('join');
    await clock.runFor(24900);
    assert.equal(peer.sent('hb').length, 0);
    await clock.runFor(200);
    await peer.waitFrame('hb');
    await clock.runFor(25000);
    await peer.waitFor(() => peer.sent('hb').length === 2, 'second hb');

    peer.refuse = true;
    peer.last.terminate();
    await t.ctx.page.waitForFunction(() => document.querySelector('.fz-disconnected'));
    for (const base of [200, 400, 800, 1600, 3200, 6400, 10000, 10000]) {
      const before = peer.attempts;
      await clock.runFor(base * 0.75 - 10);      // the earliest the jittered wait can end
      await sleep(50);
      assert.equal(peer.attempts, before, 'no attempt before ' + base * 0.75 + ' ms');
      await clock.runFor(base * 0.25 + 20);      // the latest it can end
      await peer.waitFor(() => peer.attempts === before + 1, 'attempt after ' + base + ' ms', 10000);
      // The refused upgrade closes the socket for real; let the client schedule its next wait.
      await t.ctx.page.waitForFunction(() => true);
      await sleep(100);
    }
    peer.refuse = false;
    await clock.runFor(10000);
    await peer.waitFor(() => peer.sent('join').length === 2, 'rejoin');
  });
});
