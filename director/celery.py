"""The Celery application: the worker acts on confirmation timeouts and clock deadlines."""

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "director.settings")

app = Celery("director")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each installed app's tasks.py
app.autodiscover_tasks(["games"])  # games/tasks.py: games confirmed one by one (not an app of its own)


@after_setup_logger.connect
def _quiet_routine_task_lines(**_kwargs) -> None:
    """With CELERY_QUIET_TASKS=1 (``make run``) the worker does not log every task it
    receives and finishes (beat's clock sweep runs every 2 s); what the tasks do is
    still logged (a flag that fell, a result confirmed automatically)."""
    if os.environ.get("CELERY_QUIET_TASKS") == "1":
        for name in ("celery.app.trace", "celery.worker.strategy"):
            logging.getLogger(name).setLevel(logging.WARNING)
