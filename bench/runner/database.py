"""A fresh database per server under test, created, loaded and seeded with psql."""
import os
import subprocess
import urllib.parse

APPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "apps")


def with_db(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def psql(url: str, *args):
    env = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, *args], check=True,
                   stdout=subprocess.DEVNULL, env=env)


def fresh(admin_url: str, name: str, users: int, posts_max: int) -> str:
    """Drops and recreates database `name`, loads bench/apps/schema.sql and seeds it."""
    psql(admin_url, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', "-c", f'CREATE DATABASE "{name}"')
    url = with_db(admin_url, name)
    psql(url, "-f", os.path.join(APPS, "schema.sql"))
    psql(url, "-v", f"users={users}", "-v", f"posts_max={posts_max}", "-v", "seed=0.42",
         "-f", os.path.join(APPS, "seed.sql"), "-f", os.path.join(APPS, "seed_tfb.sql"))
    return url


def reseed(url: str, users: int, posts_max: int):
    """Puts users and posts back to their seeded state while the server runs, so that a run's
    reads never depend on how many rows earlier runs wrote: a faster server writes more, and
    would otherwise read longer post lists afterwards. TRUNCATE waits for open transactions;
    the lock timeout turns a server that holds one into an error instead of a hang."""
    env_opts = "-c client_min_messages=warning -c lock_timeout=10s"
    env = dict(os.environ, PGOPTIONS=env_opts)
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c",
                    "TRUNCATE posts, users RESTART IDENTITY CASCADE", "-v", f"users={users}",
                    "-v", f"posts_max={posts_max}", "-v", "seed=0.42", "-f", os.path.join(APPS, "seed.sql")],
                   check=True, stdout=subprocess.DEVNULL, env=env)


def drop(admin_url: str, name: str):
    psql(admin_url, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
