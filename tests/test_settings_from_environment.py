"""Settings come from the environment with safe defaults (each case in a fresh process)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "broker": settings.CELERY_BROKER_URL,
    "transport": __import__("kombu").Connection(settings.CELERY_BROKER_URL).transport_cls,
    "cache": settings.CACHES["default"]["BACKEND"],
    "time_zone": settings.TIME_ZONE,
    "languages": [code for code, _ in settings.LANGUAGES],
    "language": settings.LANGUAGE_CODE,
    "beat": sorted(settings.CELERY_BEAT_SCHEDULE),
}))
"""


def settings_with(tmp_path, **env):
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}}
    clean.update({"DJANGO_SETTINGS_MODULE": "director.settings", "VAR_DIR": str(tmp_path), **env})
    return subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=BASE_DIR, env=clean, capture_output=True, text=True, timeout=60
    )


def test_the_development_key_is_refused_with_debug_off(tmp_path):
    result = settings_with(tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_off_runs_with_a_secret_key(tmp_path):
    result = settings_with(tmp_path, SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["debug"] is False


def test_the_defaults_need_nothing_but_python(tmp_path):
    result = settings_with(tmp_path, DEBUG="1")
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["db_name"] == str(tmp_path / "director.sqlite3")
    assert values["broker"].startswith("director-filesystem://")  # director/filesystem_broker.py
    assert values["transport"] == "director-filesystem"
    assert values["cache"].endswith("LocMemCache")
    assert (tmp_path / "celery" / "queue").is_dir()
    assert values["time_zone"] == "Europe/Prague"
    assert values["languages"] == ["cs", "en"] and values["language"] == "cs"
    assert values["beat"] == ["confirm-overdue-games", "confirm-overdue-results", "enforce-overdue-clocks"]


@pytest.mark.parametrize("debug", ["1", "true"])
def test_postgres_and_redis_come_from_their_urls(tmp_path, debug):
    result = settings_with(
        tmp_path, DEBUG=debug, DATABASE_URL="postgres://u:p@db.example:5432/event", REDIS_URL="redis://cache:6379/2"
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["db_name"] == "event"
    assert values["broker"] == "redis://cache:6379/2"
    assert values["cache"].endswith("RedisCache")
