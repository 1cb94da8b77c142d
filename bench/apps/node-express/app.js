// The Node peer of `fitz bench`: Express 4 + pg with named (prepared) statements, one process
// per core through node:cluster. Same routes and JSON as every implementation in bench/apps.
'use strict';
const cluster = require('node:cluster');
const os = require('node:os');

const workers = Number(process.env.WORKERS || os.availableParallelism());
if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => { for (const w of Object.values(cluster.workers)) w.kill('SIGTERM'); process.exit(0); });
  return;
}

const express = require('express');
const { Pool } = require('pg');

const pool = new Pool({
  connectionString: process.env.DATABASE_URL || 'postgres://fitz:fitz@127.0.0.1:5432/fitz',
  max: Number(process.env.POOL_MAX || 20),
});
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());

const ts = (d) => d.toISOString();
const user = (r) => ({ id: Number(r.id), name: r.name, email: r.email, created_at: ts(r.created_at) });
const post = (r) => ({ id: Number(r.id), user_id: Number(r.user_id), title: r.title, body: r.body, created_at: ts(r.created_at) });
const q = (name, text, values) => pool.query({ name, text, values });
const strings = (b, ...names) => b && typeof b === 'object' && names.every((n) => typeof b[n] === 'string');
const wrap = (fn) => (req, res) => fn(req, res).catch((e) => {
  if (e.code === '23505') return res.status(409).json({ error: 'email already exists' });
  if (e.code === '23503') return res.status(404).json({ error: 'user not found' });
  res.status(500).json({ error: String(e.message) });
});
const idParam = (req) => Number.parseInt(req.params.id, 10);

app.get('/health', (req, res) => res.json({ status: 'ok' }));

app.get('/users', wrap(async (req, res) => {
  const limit = req.query.limit === undefined ? null : Number.parseInt(req.query.limit, 10);
  const r = await q('users_list', 'SELECT id, name, email, created_at FROM users ORDER BY id LIMIT $1', [limit]);
  res.json(r.rows.map(user));
}));

app.get('/users/:id(\\d+)', wrap(async (req, res) => {
  const r = await q('user_by_id', 'SELECT id, name, email, created_at FROM users WHERE id = $1', [idParam(req)]);
  if (!r.rows.length) return res.status(404).json({ error: 'user not found' });
  res.json(user(r.rows[0]));
}));

app.get('/users/:id(\\d+)/posts', wrap(async (req, res) => {
  const r = await q('posts_by_user', 'SELECT id, user_id, title, body, created_at FROM posts WHERE user_id = $1 ORDER BY id', [idParam(req)]);
  res.json(r.rows.map(post));
}));

app.post('/users', wrap(async (req, res) => {
  if (!strings(req.body, 'name', 'email')) return res.status(400).json({ error: 'expected {name: Str, email: Str}' });
  const r = await q('user_insert', 'INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id, name, email, created_at', [req.body.name, req.body.email]);
  res.status(201).json(user(r.rows[0]));
}));

app.post('/users/:id(\\d+)/posts', wrap(async (req, res) => {
  if (!strings(req.body, 'title', 'body')) return res.status(400).json({ error: 'expected {title: Str, body: Str}' });
  const r = await q('post_insert', 'INSERT INTO posts (user_id, title, body) VALUES ($1, $2, $3) RETURNING id, user_id, title, body, created_at',
    [idParam(req), req.body.title, req.body.body]);
  res.status(201).json(post(r.rows[0]));
}));

app.put('/users/:id(\\d+)', wrap(async (req, res) => {
  if (!strings(req.body, 'name', 'email')) return res.status(400).json({ error: 'expected {name: Str, email: Str}' });
  const r = await q('user_update', 'UPDATE users SET name = $2, email = $3 WHERE id = $1 RETURNING id, name, email, created_at',
    [idParam(req), req.body.name, req.body.email]);
  if (!r.rows.length) return res.status(404).json({ error: 'user not found' });
  res.json(user(r.rows[0]));
}));

// TechEmpower Framework Benchmarks test types.
const rnd = () => 1 + Math.floor(Math.random() * 10000);
const count = (req) => Math.min(Math.max(Number.parseInt(req.query.queries, 10) || 1, 1), 500);
const world = (r) => ({ id: r.id, randomNumber: r.randomnumber });
const getWorld = async () => world((await q('world', 'SELECT id, randomnumber FROM world WHERE id = $1', [rnd()])).rows[0]);

app.get('/json', (req, res) => res.json({ message: 'Hello, World!' }));
app.get('/plaintext', (req, res) => res.type('text/plain').send('Hello, World!'));
app.get('/db', wrap(async (req, res) => res.json(await getWorld())));
app.get('/queries', wrap(async (req, res) => res.json(await Promise.all(Array.from({ length: count(req) }, getWorld)))));
const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }[c]));
app.get('/fortunes', wrap(async (req, res) => {
  const rows = (await q('fortunes', 'SELECT id, message FROM fortune', [])).rows;
  rows.push({ id: 0, message: 'Additional fortune added at request time.' });
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const cells = rows.map((r) => `<tr><td>${r.id}</td><td>${esc(r.message)}</td></tr>`).join('');
  res.type('text/html; charset=utf-8').send(`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${cells}</table></body></html>`);
}));
app.get('/updates', wrap(async (req, res) => {
  const worlds = await Promise.all(Array.from({ length: count(req) }, getWorld));
  for (const w of worlds) w.randomNumber = rnd();
  await Promise.all(worlds.map((w) => q('world_update', 'UPDATE world SET randomnumber = $2 WHERE id = $1', [w.id, w.randomNumber])));
  res.json(worlds);
}));

const server = app.listen(Number(process.env.PORT || 3000), process.env.HOST || '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
