-- Migration: create_shelves
-- Created: 2026-12-01T09:00:00Z

-- UP
CREATE TABLE "shelves" ("id" bigserial PRIMARY KEY, "name" text NOT NULL);

-- DOWN
DROP TABLE IF EXISTS "shelves";
