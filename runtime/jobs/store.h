// The jobs' database side, through the `db` module (fitz/db.h): the store tables of `store=`,
// run records, and the claim row that makes one replica run each cron tick. Internal to
// runtime/jobs.
#pragma once

#include <string>
#include <vector>

#include "fitz/jobs.h"

namespace fitz::jobs::store {

// A connection for one round of work; Err when the database cannot be reached.
Task<Result<Any, Str>> connect(const Str& url);
// conn.exec / conn.query with $n parameters; Err(message) on any database error.
Task<Result<int64_t, Str>> exec(const Any& conn, const char* sql, std::vector<Any> params);
Task<Result<List<Any>, Str>> query(const Any& conn, const char* sql, std::vector<Any> params);

// Creates fitz_cron_jobs, fitz_cron_runs, fitz_cron_ticks and fitz_bg_jobs when missing, under
// a transaction-scoped advisory lock so replicas starting together do not race in the catalog.
Task<Result<Null, Str>> ensure_tables(const Any& conn);

// The database URL of a `store=` value (a Str), or an error naming what was given.
Result<Str, Str> url_of(const Any& store);

}  // namespace fitz::jobs::store
