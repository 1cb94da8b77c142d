// The real server in the browser tests: fitz_live_test_server (tests/live/server) started as a
// child process, pages opened on it with their frames recorded, and raw sockets for the protocol
// checks a browser cannot make.
'use strict';

const { spawn } = require('node:child_process');
const WebSocket = require('ws');
const { open } = require('./harness');

const SERVER = process.env.FITZ_LIVE_TEST_SERVER;

// Starts the server binary and resolves with its base URL once it prints its port.
function startServer(env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER, [], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error('fitz_live_test_server exited with ' + code)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ child, base: 'http://127.0.0.1:' + m[1], host: '127.0.0.1:' + m[1] });
    });
  });
}

// Opens a page and records the frames its socket receives; resolves after the first `full`.
async function openLive(browser, base, pathname = '/') {
  const ctx = await open(browser, base, pathname);
  ctx.received = [];
  ctx.page.on('websocket', (ws) => ws.on('framereceived', (f) => ctx.received.push(JSON.parse(f.payload))));
  // The socket may have opened before the listener: wait for the root to carry a real number.
  await ctx.page.waitForFunction(() => {
    const c = document.querySelector('#fz-1 [data-fz-c]');
    return c && c.getAttribute('data-fz-c') !== '0';
  });
  return ctx;
}

// A raw socket: resolves with {ws, frames, next(), closed} once open, or rejects with the
// HTTP status of a refused upgrade.
function rawSocket(srv, { origin, cookie } = {}) {
  return new Promise((resolve, reject) => {
    const headers = {};
    if (cookie) headers.Cookie = cookie;
    const ws = new WebSocket(srv.base.replace('http', 'ws') + '/_fitz/live/ws', {
      origin: origin === undefined ? srv.base : origin, headers,
    });
    const frames = [];
    const waiting = [];
    const closed = new Promise((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (d) => {
      const f = JSON.parse(String(d));
      const w = waiting.shift();
      if (w) w(f); else frames.push(f);
    });
    const next = () => frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiting.push(r));
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
    ws.on('error', (e) => reject(e));
    ws.on('open', () => resolve({ ws, next, closed, send: (f) => ws.send(JSON.stringify(f)) }));
  });
}

async function tokenOf(srv, pathname = '/', cookie) {
  const res = await fetch(srv.base + pathname, { headers: cookie ? { Cookie: cookie } : {} });
  const html = await res.text();
  return /data-fz-token="([^"]+)"/.exec(html)[1];
}

module.exports = { SERVER, startServer, openLive, rawSocket, tokenOf };
