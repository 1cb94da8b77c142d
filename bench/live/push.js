#!/usr/bin/env node
// Server push at the socket level (no browsers): fitz_live_test_server with N connected Chat
// views in one room (presence off: readers), then
//   - the server's RSS idle and with the N views joined,
//   - fan-out: one message published by one more socket, the time until each of the N sockets
//     has the patch that shows it (p50 / p99 / max over all deliveries of M messages; measured
//     at this client, so it includes this process's own reading of N sockets),
//   - a Counter click: the server's CPU time per event (user + system from /proc over E events
//     on 50 sockets, each under the 50 events/s rate cap) and the bytes of the patch and ack frames.
//
//   node bench/live/push.js build/bin/fitz_live_test_server [views=1000] [messages=20] [events=10000]
//
// Uses the `ws` package of tests/browser (scripts/test-browser.sh installs it).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const WebSocket = require(path.resolve(__dirname, '../../tests/browser/node_modules/ws'));

const [server, nViews = '1000', nMessages = '20', nEvents = '10000'] = process.argv.slice(2);
if (!server) {
  console.error('usage: node bench/live/push.js <fitz_live_test_server> [views] [messages] [events]');
  process.exit(2);
}
const VIEWS = Number(nViews), MESSAGES = Number(nMessages), EVENTS = Number(nEvents);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK = 1000 / 100;  // clock ticks per second (USER_HZ, 100 on Linux)

function start() {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve(server), [], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.on('error', reject);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ child, base: 'http://127.0.0.1:' + m[1] });
    });
  });
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
function cpuMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK;  // utime + stime
}

async function token(base, pathname) {
  const html = await (await fetch(base + pathname)).text();
  return /data-fz-token="([^"]+)"/.exec(html)[1];
}

// Opens a socket and joins; resolves with {ws, c} once the `full` arrived.
function join(base, tok, onFrame) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace('http', 'ws') + '/_fitz/live/ws', { origin: base, perMessageDeflate: false });
    let joined = false;
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ t: 'join', v: 'fz-1', tok, rev: 0 })));
    ws.on('message', (d) => {
      const s = String(d);
      if (!joined) {
        const f = JSON.parse(s);
        if (f.t !== 'full') return reject(new Error('join: ' + s));
        joined = true;
        resolve({ ws, c: Number(/data-fz-c="(\d+)"/.exec(f.html)[1]) });
        return;
      }
      if (onFrame) onFrame(s);
    });
  });
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (ms) => ms.toFixed(2) + ' ms';

(async () => {
  const srv = await start();
  const pid = srv.child.pid;
  await sleep(200);
  const rssIdle = rssKb(pid);

  // N readers. Each records when it saw message k.
  const seen = new Map();  // k -> [arrival times]
  const tok = await token(srv.base, '/chat?room=bench&name=reader&track=0');
  const readers = [];
  const t0 = Date.now();
  for (let i = 0; i < VIEWS; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(VIEWS, i + 100); j++) {
      batch.push(join(srv.base, tok, (s) => {
        const m = /bench-(\d+)-/.exec(s);
        if (m) {
          const at = process.hrtime.bigint();
          if (!seen.has(m[1])) seen.set(m[1], []);
          seen.get(m[1]).push(at);
        }
      }));
    }
    readers.push(...(await Promise.all(batch)));
  }
  const joinMs = Date.now() - t0;
  await sleep(500);
  const rssJoined = rssKb(pid);

  // The sender: one more view in the room.
  const sender = await join(srv.base, await token(srv.base, '/chat?room=bench&name=sender&track=0'));
  const lat = [];
  const cpuFan0 = cpuMs(pid);
  for (let k = 0; k < MESSAGES; k++) {
    const sent = process.hrtime.bigint();
    sender.ws.send(JSON.stringify({ t: 'ev', v: 'fz-1', ref: k + 1, c: sender.c, e: 'send', p: { name: 's', text: `bench-${k}-` } }));
    const end = Date.now() + 5000;
    while ((seen.get(String(k)) || []).length < VIEWS && Date.now() < end) await sleep(2);
    const got = seen.get(String(k)) || [];
    if (got.length < VIEWS) console.error(`message ${k}: only ${got.length} of ${VIEWS} views got it`);
    for (const at of got) lat.push(Number(at - sent) / 1e6);
    await sleep(50);
  }
  const cpuFan = cpuMs(pid) - cpuFan0;
  lat.sort((a, b) => a - b);
  for (const r of readers) r.ws.close();
  sender.ws.close();
  await sleep(500);

  // Counter clicks on 50 sockets, each waiting for its ack before the next click.
  const SOCKETS = 50;
  const per = Math.ceil(EVENTS / SOCKETS);
  const ctok = await token(srv.base, '/');
  const bytes = { patch: [], ack: [] };
  const clickers = [];
  for (let i = 0; i < SOCKETS; i++) {
    const waiters = [];
    const c = await join(srv.base, ctok, (s) => {
      const f = JSON.parse(s);
      if (f.t === 'patch') bytes.patch.push(Buffer.byteLength(s));
      if (f.t === 'ack') { bytes.ack.push(Buffer.byteLength(s)); const w = waiters.shift(); if (w) w(); }
    });
    clickers.push({ ...c, waiters });
  }
  await sleep(200);
  const cpu0 = cpuMs(pid);
  const tc = Date.now();
  let done = 0;
  await Promise.all(clickers.map(async (cl, i) => {
    for (let k = 0; k < per && done < EVENTS; k++, done++) {
      const acked = new Promise((r) => cl.waiters.push(r));
      cl.ws.send(JSON.stringify({ t: 'ev', v: 'fz-1', ref: k + 1, c: cl.c, e: 'inc', p: {} }));
      await acked;
      if (k % 40 === 39) await sleep(1000);  // stay under the 50/s cap
    }
  }));
  const clickMs = Date.now() - tc;
  const cpuClicks = cpuMs(pid) - cpu0;
  for (const cl of clickers) cl.ws.close();
  const avg = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

  console.log(`live push benchmark (${server})`);
  console.log(`  views joined: ${VIEWS} in ${joinMs} ms`);
  console.log(`  server RSS: ${(rssIdle / 1024).toFixed(1)} MiB idle, ${(rssJoined / 1024).toFixed(1)} MiB with ${VIEWS} chat views ` +
              `(${((rssJoined - rssIdle) / VIEWS).toFixed(1)} KiB per view)`);
  console.log(`  fan-out of one message to ${VIEWS} views (${MESSAGES} messages, ${lat.length} deliveries): ` +
              `p50 ${fmt(pct(lat, 50))}, p99 ${fmt(pct(lat, 99))}, max ${fmt(lat[lat.length - 1])}; ` +
              `server CPU ${(cpuFan / MESSAGES).toFixed(1)} ms per message`);
  console.log(`  counter click: ${done} events in ${clickMs} ms, server CPU ${(cpuClicks * 1000 / done).toFixed(1)} us per event; ` +
              `patch frame ${avg(bytes.patch).toFixed(0)} bytes, ack ${avg(bytes.ack).toFixed(0)} bytes`);
  srv.child.kill('SIGTERM');
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
