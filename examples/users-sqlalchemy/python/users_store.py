# The storage of the users-sqlalchemy example: SQLAlchemy 1.4 with its 2.0-style API
# (future=True) over psycopg2, called from Fitz through `from python import users_store`.
from sqlalchemy import create_engine, text

_engine = None


def connect(url):
    """Opens the pool and creates the table if it is missing."""
    global _engine
    if url.startswith("postgres://"):
        url = "postgresql+psycopg2://" + url[len("postgres://"):]
    _engine = create_engine(url, future=True, pool_size=10)
    with _engine.begin() as conn:
        conn.execute(text(
            "CREATE TABLE IF NOT EXISTS sa_users ("
            " id bigserial PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE)"))
    return True


def create(user):
    with _engine.begin() as conn:
        return dict(conn.execute(
            text("INSERT INTO sa_users (name, email) VALUES (:name, :email) RETURNING id, name, email"),
            user).mappings().one())


def get(user_id):
    with _engine.connect() as conn:
        row = conn.execute(text("SELECT id, name, email FROM sa_users WHERE id = :id"),
                           {"id": user_id}).mappings().first()
        return dict(row) if row else None


def page(limit):
    with _engine.connect() as conn:
        rows = conn.execute(text("SELECT id, name, email FROM sa_users ORDER BY id LIMIT :n"), {"n": limit})
        return [dict(r) for r in rows.mappings()]
