//! The Rust peer of `fitz bench`: hyper 0.14 on a multi-threaded tokio runtime (one worker per
//! core), tokio-postgres with every statement prepared once per connection, serde_json. Same
//! routes and JSON as every implementation in bench/apps.
//!
//! The pool is a fixed set of connections handed out round-robin: a tokio-postgres client is
//! shared by any number of tasks and pipelines their queries, so a few connections per core
//! keep Postgres busy without a checkout queue.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::service::{make_service_fn, service_fn};
use hyper::{Body, Method, Request, Response, Server, StatusCode};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, Row, Statement};

const USER_COLS: &str = "id, name, email, created_at";
const POST_COLS: &str = "id, user_id, title, body, created_at";

#[derive(Serialize)]
struct User {
    id: i64,
    name: String,
    email: String,
    created_at: String,
}

#[derive(Serialize)]
struct Post {
    id: i64,
    user_id: i64,
    title: String,
    body: String,
    created_at: String,
}

#[derive(Serialize)]
struct World {
    id: i32,
    #[serde(rename = "randomNumber")]
    random_number: i32,
}

#[derive(Deserialize)]
struct NewUser {
    name: String,
    email: String,
}

#[derive(Deserialize)]
struct NewPost {
    title: String,
    body: String,
}

/// RFC 3339 in UTC with milliseconds, as every implementation writes timestamps.
fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn user_of(r: &Row) -> User {
    User { id: r.get(0), name: r.get(1), email: r.get(2), created_at: stamp(r.get(3)) }
}

fn post_of(r: &Row) -> Post {
    Post { id: r.get(0), user_id: r.get(1), title: r.get(2), body: r.get(3), created_at: stamp(r.get(4)) }
}

struct Statements {
    users_list: Statement,
    user_by_id: Statement,
    posts_by_user: Statement,
    user_insert: Statement,
    post_insert: Statement,
    user_update: Statement,
    world: Statement,
    world_update: Statement,
    fortunes: Statement,
}

struct Conn {
    client: Client,
    st: Statements,
}

struct Db {
    conns: Vec<Conn>,
    next: AtomicUsize,
}

impl Db {
    async fn connect(url: &str, size: usize) -> Result<Db, tokio_postgres::Error> {
        let mut conns = Vec::with_capacity(size);
        for _ in 0..size {
            let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    eprintln!("database connection closed: {e}");
                }
            });
            let st = Statements {
                users_list: client.prepare(&format!("SELECT {USER_COLS} FROM users ORDER BY id LIMIT $1")).await?,
                user_by_id: client.prepare(&format!("SELECT {USER_COLS} FROM users WHERE id = $1")).await?,
                posts_by_user: client
                    .prepare(&format!("SELECT {POST_COLS} FROM posts WHERE user_id = $1 ORDER BY id"))
                    .await?,
                user_insert: client
                    .prepare(&format!("INSERT INTO users (name, email) VALUES ($1, $2) RETURNING {USER_COLS}"))
                    .await?,
                post_insert: client
                    .prepare(&format!(
                        "INSERT INTO posts (user_id, title, body) VALUES ($1, $2, $3) RETURNING {POST_COLS}"
                    ))
                    .await?,
                user_update: client
                    .prepare(&format!("UPDATE users SET name = $2, email = $3 WHERE id = $1 RETURNING {USER_COLS}"))
                    .await?,
                world: client.prepare("SELECT id, randomnumber FROM world WHERE id = $1").await?,
                world_update: client.prepare("UPDATE world SET randomnumber = $2 WHERE id = $1").await?,
                fortunes: client.prepare("SELECT id, message FROM fortune").await?,
            };
            conns.push(Conn { client, st });
        }
        Ok(Db { conns, next: AtomicUsize::new(0) })
    }

    fn get(&self) -> &Conn {
        &self.conns[self.next.fetch_add(1, Ordering::Relaxed) % self.conns.len()]
    }
}

fn respond(status: StatusCode, content_type: &'static str, body: impl Into<Body>) -> Response<Body> {
    let mut res = Response::new(body.into());
    *res.status_mut() = status;
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}

fn json<T: Serialize>(status: StatusCode, v: &T) -> Response<Body> {
    match serde_json::to_vec(v) {
        Ok(body) => respond(status, "application/json", body),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

fn error(status: StatusCode, msg: &str) -> Response<Body> {
    let body = serde_json::json!({ "error": msg }).to_string();
    respond(status, "application/json", body)
}

fn query_param<'a>(query: Option<&'a str>, name: &str) -> Option<&'a str> {
    query?.split('&').find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

fn query_count(query: Option<&str>) -> usize {
    query_param(query, "queries").and_then(|s| s.parse::<i64>().ok()).unwrap_or(1).clamp(1, 500) as usize
}

fn random_id() -> i32 {
    rand::thread_rng().gen_range(1..=10000)
}

async fn body_of<T: for<'de> Deserialize<'de>>(body: Body) -> Option<T> {
    let bytes = hyper::body::to_bytes(body).await.ok()?;
    serde_json::from_slice(&bytes).ok()
}

type Reply = Result<Response<Body>, tokio_postgres::Error>;

async fn list_users(db: &Db, query: Option<&str>) -> Reply {
    let limit = match query_param(query, "limit").map(str::parse::<i64>) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => return Ok(error(StatusCode::BAD_REQUEST, "limit must be an integer")),
    };
    let c = db.get();
    let rows = c.client.query(&c.st.users_list, &[&limit]).await?;
    Ok(json(StatusCode::OK, &rows.iter().map(user_of).collect::<Vec<_>>()))
}

async fn get_user(db: &Db, id: i64) -> Reply {
    let c = db.get();
    Ok(match c.client.query_opt(&c.st.user_by_id, &[&id]).await? {
        Some(r) => json(StatusCode::OK, &user_of(&r)),
        None => error(StatusCode::NOT_FOUND, "user not found"),
    })
}

async fn user_posts(db: &Db, id: i64) -> Reply {
    let c = db.get();
    let rows = c.client.query(&c.st.posts_by_user, &[&id]).await?;
    Ok(json(StatusCode::OK, &rows.iter().map(post_of).collect::<Vec<_>>()))
}

async fn create_user(db: &Db, body: Body) -> Reply {
    let u: NewUser = match body_of(body).await {
        Some(v) => v,
        None => return Ok(error(StatusCode::BAD_REQUEST, "expected {name: Str, email: Str}")),
    };
    let c = db.get();
    match c.client.query_one(&c.st.user_insert, &[&u.name, &u.email]).await {
        Ok(r) => Ok(json(StatusCode::CREATED, &user_of(&r))),
        Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
            Ok(error(StatusCode::CONFLICT, "email already exists"))
        }
        Err(e) => Err(e),
    }
}

async fn create_post(db: &Db, id: i64, body: Body) -> Reply {
    let p: NewPost = match body_of(body).await {
        Some(v) => v,
        None => return Ok(error(StatusCode::BAD_REQUEST, "expected {title: Str, body: Str}")),
    };
    let c = db.get();
    match c.client.query_one(&c.st.post_insert, &[&id, &p.title, &p.body]).await {
        Ok(r) => Ok(json(StatusCode::CREATED, &post_of(&r))),
        Err(e) if e.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION) => {
            Ok(error(StatusCode::NOT_FOUND, "user not found"))
        }
        Err(e) => Err(e),
    }
}

async fn update_user(db: &Db, id: i64, body: Body) -> Reply {
    let u: NewUser = match body_of(body).await {
        Some(v) => v,
        None => return Ok(error(StatusCode::BAD_REQUEST, "expected {name: Str, email: Str}")),
    };
    let c = db.get();
    match c.client.query_opt(&c.st.user_update, &[&id, &u.name, &u.email]).await {
        Ok(Some(r)) => Ok(json(StatusCode::OK, &user_of(&r))),
        Ok(None) => Ok(error(StatusCode::NOT_FOUND, "user not found")),
        Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
            Ok(error(StatusCode::CONFLICT, "email already exists"))
        }
        Err(e) => Err(e),
    }
}

// TechEmpower Framework Benchmarks test types.

async fn random_world(c: &Conn) -> Result<World, tokio_postgres::Error> {
    let r = c.client.query_one(&c.st.world, &[&random_id()]).await?;
    Ok(World { id: r.get(0), random_number: r.get(1) })
}

async fn tfb_db(db: &Db) -> Reply {
    Ok(json(StatusCode::OK, &random_world(db.get()).await?))
}

async fn tfb_queries(db: &Db, query: Option<&str>) -> Reply {
    let c = db.get();
    let mut worlds = Vec::with_capacity(query_count(query));
    for _ in 0..worlds.capacity() {
        worlds.push(random_world(c).await?);
    }
    Ok(json(StatusCode::OK, &worlds))
}

async fn tfb_updates(db: &Db, query: Option<&str>) -> Reply {
    let c = db.get();
    let mut worlds = Vec::with_capacity(query_count(query));
    for _ in 0..worlds.capacity() {
        let mut w = random_world(c).await?;
        w.random_number = random_id();
        worlds.push(w);
    }
    for w in &worlds {
        c.client.execute(&c.st.world_update, &[&w.id, &w.random_number]).await?;
    }
    Ok(json(StatusCode::OK, &worlds))
}

fn escape_html(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}

async fn tfb_fortunes(db: &Db) -> Reply {
    let c = db.get();
    let rows = c.client.query(&c.st.fortunes, &[]).await?;
    let mut fortunes: Vec<(i32, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    fortunes.push((0, "Additional fortune added at request time.".to_owned()));
    fortunes.sort_by(|a, b| a.1.cmp(&b.1));
    let mut html = String::with_capacity(2048);
    html.push_str("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
    for (id, message) in &fortunes {
        html.push_str("<tr><td>");
        html.push_str(&id.to_string());
        html.push_str("</td><td>");
        escape_html(message, &mut html);
        html.push_str("</td></tr>");
    }
    html.push_str("</table></body></html>");
    Ok(respond(StatusCode::OK, "text/html; charset=utf-8", html))
}

async fn route(db: &Db, req: Request<Body>) -> Reply {
    let (parts, body) = req.into_parts();
    let query = parts.uri.query();
    let segments: Vec<&str> = parts.uri.path().trim_start_matches('/').split('/').collect();
    let id = segments.get(1).and_then(|s| s.parse::<i64>().ok());
    match (&parts.method, segments.as_slice(), id) {
        (&Method::GET, ["health"], _) => Ok(json(StatusCode::OK, &serde_json::json!({ "status": "ok" }))),
        (&Method::GET, ["users"], _) => list_users(db, query).await,
        (&Method::POST, ["users"], _) => create_user(db, body).await,
        (&Method::GET, ["users", _], Some(id)) => get_user(db, id).await,
        (&Method::PUT, ["users", _], Some(id)) => update_user(db, id, body).await,
        (&Method::GET, ["users", _, "posts"], Some(id)) => user_posts(db, id).await,
        (&Method::POST, ["users", _, "posts"], Some(id)) => create_post(db, id, body).await,
        (&Method::GET, ["json"], _) => Ok(json(StatusCode::OK, &serde_json::json!({ "message": "Hello, World!" }))),
        (&Method::GET, ["plaintext"], _) => Ok(respond(StatusCode::OK, "text/plain", "Hello, World!")),
        (&Method::GET, ["db"], _) => tfb_db(db).await,
        (&Method::GET, ["queries"], _) => tfb_queries(db, query).await,
        (&Method::GET, ["fortunes"], _) => tfb_fortunes(db).await,
        (&Method::GET, ["updates"], _) => tfb_updates(db, query).await,
        _ => Ok(error(StatusCode::NOT_FOUND, "not found")),
    }
}

async fn handle(db: Arc<Db>, req: Request<Body>) -> Result<Response<Body>, Infallible> {
    Ok(route(&db, req).await.unwrap_or_else(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string())))
}

fn env_or(name: &str, fallback: &str) -> String {
    std::env::var(name).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| fallback.to_owned())
}

async fn serve(cores: usize) -> Result<(), String> {
    let url = env_or("DATABASE_URL", "postgres://fitz:fitz@127.0.0.1:5432/fitz");
    let size = match std::env::var("POOL_SIZE") {
        Ok(s) => s.parse::<usize>().ok().filter(|&n| n > 0).ok_or(format!("POOL_SIZE must be a positive integer, got {s:?}"))?,
        Err(_) => 2 * cores,
    };
    let db = Arc::new(Db::connect(&url, size).await.map_err(|e| format!("connecting to the database: {e}"))?);
    let addr: SocketAddr = format!("{}:{}", env_or("HOST", "127.0.0.1"), env_or("PORT", "3000"))
        .parse()
        .map_err(|e| format!("HOST/PORT: {e}"))?;
    let make = make_service_fn(move |_| {
        let db = db.clone();
        async move { Ok::<_, Infallible>(service_fn(move |req| handle(db.clone(), req))) }
    });
    Server::try_bind(&addr).map_err(|e| format!("binding {addr}: {e}"))?.serve(make).await.map_err(|e| e.to_string())
}

fn main() {
    let cores = num_cpus::get();
    let result = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
        .and_then(|rt| rt.block_on(serve(cores)));
    if let Err(e) = result {
        eprintln!("bench-rust: {e}");
        std::process::exit(1);
    }
}
