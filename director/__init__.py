"""The Django project: settings, URLs, the Celery app and project-wide commands."""

from director.celery import app as celery_app

__all__ = ["celery_app"]
