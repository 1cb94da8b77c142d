-- Migration: create_books
-- Created: 2026-12-01T10:00:00Z

-- UP
CREATE TABLE "books" ("id" bigserial PRIMARY KEY, "shelf_id" bigint NOT NULL REFERENCES "shelves" ("id"), "title" text NOT NULL);
INSERT INTO "shelves" ("name") VALUES ('first');

-- DOWN
DROP TABLE IF EXISTS "books";
