// The Node ORM peer of `fitz bench`: Express 4 + Sequelize 6 on pg (Prisma cannot download its
// query engine here), one process per core through node:cluster. Same routes and JSON as every
// implementation in bench/apps.
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
const { Sequelize, DataTypes, UniqueConstraintError, ForeignKeyConstraintError } = require('sequelize');

const sequelize = new Sequelize(process.env.DATABASE_URL || 'postgres://fitz:fitz@127.0.0.1:5432/fitz', {
  logging: false,
  pool: { max: Number(process.env.POOL_MAX || 20), min: 0 },
});
const common = { timestamps: false, underscored: true };
const User = sequelize.define('User', {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  name: { type: DataTypes.TEXT, allowNull: false },
  email: { type: DataTypes.TEXT, allowNull: false, unique: true },
  created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
}, { ...common, tableName: 'users' });
const Post = sequelize.define('Post', {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  user_id: { type: DataTypes.BIGINT, allowNull: false },
  title: { type: DataTypes.TEXT, allowNull: false },
  body: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
  created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
}, { ...common, tableName: 'posts' });
const World = sequelize.define('World', {
  id: { type: DataTypes.INTEGER, primaryKey: true },
  randomnumber: { type: DataTypes.INTEGER, allowNull: false },
}, { ...common, tableName: 'world' });
const Fortune = sequelize.define('Fortune', {
  id: { type: DataTypes.INTEGER, primaryKey: true },
  message: { type: DataTypes.TEXT, allowNull: false },
}, { ...common, tableName: 'fortune' });

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());

const user = (u) => ({ id: Number(u.id), name: u.name, email: u.email, created_at: u.created_at.toISOString() });
const post = (p) => ({ id: Number(p.id), user_id: Number(p.user_id), title: p.title, body: p.body, created_at: p.created_at.toISOString() });
const strings = (b, ...names) => b && typeof b === 'object' && names.every((n) => typeof b[n] === 'string');
const idParam = (req) => Number.parseInt(req.params.id, 10);
const wrap = (fn) => (req, res) => fn(req, res).catch((e) => {
  if (e instanceof UniqueConstraintError) return res.status(409).json({ error: 'email already exists' });
  if (e instanceof ForeignKeyConstraintError) return res.status(404).json({ error: 'user not found' });
  res.status(500).json({ error: String(e.message) });
});

app.get('/health', (req, res) => res.json({ status: 'ok' }));
app.get('/users', wrap(async (req, res) => {
  const limit = req.query.limit === undefined ? undefined : Number.parseInt(req.query.limit, 10);
  res.json((await User.findAll({ order: [['id', 'ASC']], limit })).map(user));
}));
app.get('/users/:id(\\d+)', wrap(async (req, res) => {
  const u = await User.findByPk(idParam(req));
  if (!u) return res.status(404).json({ error: 'user not found' });
  res.json(user(u));
}));
app.get('/users/:id(\\d+)/posts', wrap(async (req, res) => {
  res.json((await Post.findAll({ where: { user_id: idParam(req) }, order: [['id', 'ASC']] })).map(post));
}));
app.post('/users', wrap(async (req, res) => {
  if (!strings(req.body, 'name', 'email')) return res.status(400).json({ error: 'expected {name: Str, email: Str}' });
  res.status(201).json(user(await User.create({ name: req.body.name, email: req.body.email })));
}));
app.post('/users/:id(\\d+)/posts', wrap(async (req, res) => {
  if (!strings(req.body, 'title', 'body')) return res.status(400).json({ error: 'expected {title: Str, body: Str}' });
  res.status(201).json(post(await Post.create({ user_id: idParam(req), title: req.body.title, body: req.body.body })));
}));
app.put('/users/:id(\\d+)', wrap(async (req, res) => {
  if (!strings(req.body, 'name', 'email')) return res.status(400).json({ error: 'expected {name: Str, email: Str}' });
  const u = await User.findByPk(idParam(req));
  if (!u) return res.status(404).json({ error: 'user not found' });
  await u.update({ name: req.body.name, email: req.body.email });
  res.json(user(u));
}));

// TechEmpower Framework Benchmarks test types.
const rnd = () => 1 + Math.floor(Math.random() * 10000);
const count = (req) => Math.min(Math.max(Number.parseInt(req.query.queries, 10) || 1, 1), 500);
const world = (w) => ({ id: w.id, randomNumber: w.randomnumber });
app.get('/json', (req, res) => res.json({ message: 'Hello, World!' }));
app.get('/plaintext', (req, res) => res.type('text/plain').send('Hello, World!'));
app.get('/db', wrap(async (req, res) => res.json(world(await World.findByPk(rnd())))));
app.get('/queries', wrap(async (req, res) => {
  res.json((await Promise.all(Array.from({ length: count(req) }, () => World.findByPk(rnd())))).map(world));
}));
const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }[c]));
app.get('/fortunes', wrap(async (req, res) => {
  const rows = (await Fortune.findAll()).map((f) => ({ id: f.id, message: f.message }));
  rows.push({ id: 0, message: 'Additional fortune added at request time.' });
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const cells = rows.map((r) => `<tr><td>${r.id}</td><td>${esc(r.message)}</td></tr>`).join('');
  res.type('text/html; charset=utf-8').send(`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${cells}</table></body></html>`);
}));
app.get('/updates', wrap(async (req, res) => {
  const worlds = await Promise.all(Array.from({ length: count(req) }, () => World.findByPk(rnd())));
  await Promise.all(worlds.map((w) => w.update({ randomnumber: rnd() })));
  res.json(worlds.map(world));
}));

const server = app.listen(Number(process.env.PORT || 3000), process.env.HOST || '127.0.0.1');
process.on('SIGTERM', () => server.close(() => sequelize.close().then(() => process.exit(0))));
