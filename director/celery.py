"""The Celery application: the worker acts on confirmation timeouts and clock deadlines."""

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger, task_postrun, task_prerun
from django.db import close_old_connections

from director import filesystem_broker  # noqa: F401 - registers the broker of make run (director-filesystem://)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "director.settings")

app = Celery("director")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each installed app's tasks.py
app.autodiscover_tasks(["games"])  # games/tasks.py: games confirmed one by one (not an app of its own)

# Database connections live as long as in the web processes (CONN_MAX_AGE). Celery's
# Django fix-up closes every connection around every task unless told how many tasks
# one may serve: a new PostgreSQL connection per clock timeout cost more than the
# timeout itself. It is told "any number", and each task starts and ends the way Django
# ends a request: a connection that is broken or past its age is closed.
app.conf.CELERY_DB_REUSE_MAX = 2**62


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(task=None, **_kwargs) -> None:
    if task is None or not getattr(task.request, "is_eager", False):  # not inside a caller's transaction
        close_old_connections()


@after_setup_logger.connect
def _quiet_routine_task_lines(**_kwargs) -> None:
    """With CELERY_QUIET_TASKS=1 (``make run``) the worker does not log every task it
    receives and finishes (beat's clock sweep runs every 2 s); what the tasks do is
    still logged (a flag that fell, a result confirmed automatically)."""
    if os.environ.get("CELERY_QUIET_TASKS") == "1":
        for name in ("celery.app.trace", "celery.worker.strategy"):
            logging.getLogger(name).setLevel(logging.WARNING)
