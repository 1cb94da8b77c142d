# SQLAlchemy 1.4 with the 2.0-style API (future=True) over psycopg2: the storage of the users
# routes in tests/e2e/python.sh.
from sqlalchemy import create_engine, text

engine = None


def connect(url):
    global engine
    if url.startswith("postgres://"):
        url = "postgresql+psycopg2://" + url[len("postgres://"):]
    engine = create_engine(url, future=True, pool_size=4)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS py_e2e_users"))
        conn.execute(text("CREATE TABLE py_e2e_users (id bigserial PRIMARY KEY, name text NOT NULL, email text NOT NULL)"))
    return True


def create_user(user):
    with engine.begin() as conn:
        row = conn.execute(
            text("INSERT INTO py_e2e_users (name, email) VALUES (:name, :email) RETURNING id, name, email"),
            {"name": user["name"], "email": user["email"]},
        ).mappings().one()
        return dict(row)


def get_user(user_id):
    with engine.connect() as conn:
        row = conn.execute(text("SELECT id, name, email FROM py_e2e_users WHERE id = :id"), {"id": user_id}).mappings().first()
        return dict(row) if row else None


def list_users():
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(text("SELECT id, name, email FROM py_e2e_users ORDER BY id")).mappings()]


def timed_sleep(secs):
    """A query that waits in the server, timed from here: psycopg2 lets go of the GIL while it
    waits, so two of these on two threads overlap."""
    import time
    with engine.connect() as conn:
        start = time.time()
        conn.execute(text("SELECT pg_sleep(:s)"), {"s": secs})
        return {"start": start, "end": time.time()}
