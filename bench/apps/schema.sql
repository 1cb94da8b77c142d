-- The database every implementation under bench/apps serves: users and posts (the `orm` and
-- `mixed` suites, as the published benchmarks define them) and the TechEmpower tables.
DROP TABLE IF EXISTS posts, users, world, fortune CASCADE;
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE posts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_user_id_idx ON posts (user_id);
CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL);
CREATE TABLE fortune (id integer PRIMARY KEY, message text NOT NULL);
