"""The Python peer of `fitz bench`: Flask + SQLAlchemy ORM + psycopg2, served by gunicorn.

The same routes and JSON as every other implementation under bench/apps (see bench/README.md):
users and posts for the `orm` and `mixed` suites, the TechEmpower test types for `tfb`.
Run: DATABASE_URL=postgresql://... gunicorn -w 5 -b 127.0.0.1:3000 app:app
"""
import datetime
import html
import os
import random

from flask import Flask, Response, jsonify, request
from sqlalchemy import create_engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models import Fortune, Post, User, World


url = os.environ.get("DATABASE_URL", "postgresql://fitz:fitz@127.0.0.1:5432/fitz")
url = url.replace("postgres://", "postgresql://", 1)
engine = create_engine(url, pool_size=20, max_overflow=10, future=True)
app = Flask(__name__)
app.json.sort_keys = False  # the same key order as the other implementations


def ts(value: datetime.datetime) -> str:
    return value.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def user_json(u: User) -> dict:
    return {"id": u.id, "name": u.name, "email": u.email, "created_at": ts(u.created_at)}


def post_json(p: Post) -> dict:
    return {"id": p.id, "user_id": p.user_id, "title": p.title, "body": p.body, "created_at": ts(p.created_at)}


def error(status: int, message: str):
    return jsonify({"error": message}), status


def body_fields(*names):
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or any(not isinstance(data.get(n), str) for n in names):
        return None
    return data


@app.get("/health")
def health():
    return jsonify({"status": "ok"})


@app.get("/users")
def list_users():
    limit = request.args.get("limit", type=int)
    with Session(engine) as s:
        q = select(User).order_by(User.id)
        if limit is not None:
            q = q.limit(limit)
        return jsonify([user_json(u) for u in s.scalars(q)])


@app.get("/users/<int:user_id>")
def get_user(user_id):
    with Session(engine) as s:
        u = s.get(User, user_id)
        return jsonify(user_json(u)) if u else error(404, "user not found")


@app.get("/users/<int:user_id>/posts")
def user_posts(user_id):
    with Session(engine) as s:
        q = select(Post).where(Post.user_id == user_id).order_by(Post.id)
        return jsonify([post_json(p) for p in s.scalars(q)])


@app.post("/users")
def create_user():
    data = body_fields("name", "email")
    if data is None:
        return error(400, "expected {name: Str, email: Str}")
    with Session(engine) as s:
        u = User(name=data["name"], email=data["email"])
        s.add(u)
        try:
            s.commit()
        except IntegrityError:
            return error(409, "email already exists")
        s.refresh(u)
        return jsonify(user_json(u)), 201


@app.post("/users/<int:user_id>/posts")
def create_post(user_id):
    data = body_fields("title", "body")
    if data is None:
        return error(400, "expected {title: Str, body: Str}")
    with Session(engine) as s:
        p = Post(user_id=user_id, title=data["title"], body=data["body"])
        s.add(p)
        try:
            s.commit()
        except IntegrityError:
            return error(404, "user not found")
        s.refresh(p)
        return jsonify(post_json(p)), 201


@app.put("/users/<int:user_id>")
def update_user(user_id):
    data = body_fields("name", "email")
    if data is None:
        return error(400, "expected {name: Str, email: Str}")
    with Session(engine) as s:
        u = s.get(User, user_id)
        if u is None:
            return error(404, "user not found")
        u.name, u.email = data["name"], data["email"]
        try:
            s.commit()
        except IntegrityError:
            return error(409, "email already exists")
        return jsonify(user_json(u))


# TechEmpower Framework Benchmarks test types.
@app.get("/json")
def tfb_json():
    return jsonify({"message": "Hello, World!"})


@app.get("/plaintext")
def tfb_plaintext():
    return Response("Hello, World!", content_type="text/plain")


def query_count() -> int:
    try:
        n = int(request.args.get("queries", "1"))
    except ValueError:
        n = 1
    return min(max(n, 1), 500)


def world_json(w: World) -> dict:
    return {"id": w.id, "randomNumber": w.randomnumber}


@app.get("/db")
def tfb_db():
    with Session(engine) as s:
        return jsonify(world_json(s.get(World, random.randint(1, 10000))))


@app.get("/queries")
def tfb_queries():
    with Session(engine) as s:
        return jsonify([world_json(s.get(World, random.randint(1, 10000))) for _ in range(query_count())])


@app.get("/fortunes")
def tfb_fortunes():
    with Session(engine) as s:
        rows = [(f.id, f.message) for f in s.scalars(select(Fortune))]
    rows.append((0, "Additional fortune added at request time."))
    rows.sort(key=lambda r: r[1])
    cells = "".join(f"<tr><td>{i}</td><td>{html.escape(m)}</td></tr>" for i, m in rows)
    page = ("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>"
            f"<tr><th>id</th><th>message</th></tr>{cells}</table></body></html>")
    return Response(page, content_type="text/html; charset=utf-8")


@app.get("/updates")
def tfb_updates():
    with Session(engine) as s:
        worlds = [s.get(World, random.randint(1, 10000)) for _ in range(query_count())]
        for w in worlds:
            w.randomnumber = random.randint(1, 10000)
        s.commit()
        return jsonify([world_json(w) for w in worlds])
