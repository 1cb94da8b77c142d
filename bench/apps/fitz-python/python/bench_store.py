# The storage of bench/apps/fitz-python: the same SQLAlchemy ORM models, sessions and queries as
# the Flask peer (bench/apps/python/app.py), called in-process from Fitz. Rows go back as dicts
# that Fitz converts to its declared types; None means "not found" and a conflict is None too.
import datetime
import os

from sqlalchemy import create_engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models import Post, User  # bench/apps/python/models.py, through [python] path

url = os.environ.get("DATABASE_URL", "postgresql://fitz:fitz@127.0.0.1:5432/fitz")
url = url.replace("postgres://", "postgresql://", 1)
# The peer's pool (20 + 10); the Fitz worker pool bounds how many sessions are open at once.
engine = create_engine(url, pool_size=20, max_overflow=10, future=True)


def ts(value: datetime.datetime) -> str:
    return value.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def user_json(u: User) -> dict:
    return {"id": u.id, "name": u.name, "email": u.email, "created_at": ts(u.created_at)}


def post_json(p: Post) -> dict:
    return {"id": p.id, "user_id": p.user_id, "title": p.title, "body": p.body, "created_at": ts(p.created_at)}


def list_users(limit):
    with Session(engine) as s:
        q = select(User).order_by(User.id)
        if limit is not None:
            q = q.limit(limit)
        return [user_json(u) for u in s.scalars(q)]


def get_user(user_id):
    with Session(engine) as s:
        u = s.get(User, user_id)
        return user_json(u) if u else None


def user_posts(user_id):
    with Session(engine) as s:
        q = select(Post).where(Post.user_id == user_id).order_by(Post.id)
        return [post_json(p) for p in s.scalars(q)]


def create_user(name, email):
    with Session(engine) as s:
        u = User(name=name, email=email)
        s.add(u)
        try:
            s.commit()
        except IntegrityError:
            return None
        s.refresh(u)
        return user_json(u)


def create_post(user_id, title, body):
    with Session(engine) as s:
        p = Post(user_id=user_id, title=title, body=body)
        s.add(p)
        try:
            s.commit()
        except IntegrityError:
            return None
        s.refresh(p)
        return post_json(p)


def update_user(user_id, name, email):
    """The updated user; None when there is no such user; raises IntegrityError on a taken email."""
    with Session(engine) as s:
        u = s.get(User, user_id)
        if u is None:
            return None
        u.name, u.email = name, email
        s.commit()
        return user_json(u)
