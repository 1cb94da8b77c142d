-- Seeds the users and posts of the bench database (again before each measured run of the
-- suites that write them, after a TRUNCATE). psql variables: users (how many), posts_max (each user gets
-- 0..posts_max posts, as the mixed-workload harness does), seed (for setseed, so every
-- implementation gets the same data).
SELECT setseed(:seed);
INSERT INTO users (name, email)
  SELECT 'Seed ' || i, 'seed-' || i || '@bench.example.com' FROM generate_series(1, :users) AS i;
INSERT INTO posts (user_id, title, body)
  SELECT u.id, 'Seed Post ' || u.id || '.' || j, 'Seed body of post ' || j || ' for user ' || u.id
  FROM users u, LATERAL generate_series(1, floor(random() * (:posts_max + 1))::int) AS j;
ANALYZE users, posts;
