"""Run the whole product on one machine: the web server, a Celery worker and beat."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from director import demo


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and Celery beat together; Ctrl+C stops all three."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))

    def handle(self, *args, host: str, port: str, **options):
        python = sys.executable
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # noqa: S104 - only compared
        base = os.environ.get("SITE_URL", f"http://{shown_host}:{port}").rstrip("/")
        schedule = str(settings.VAR_DIR / "celerybeat-schedule")
        commands = {
            "worker": [python, "-m", "celery", "-A", "director", "worker", "-l", "info", "--concurrency", "2"],
            "beat": [python, "-m", "celery", "-A", "director", "beat", "-l", "warning", "-s", schedule],
            "web": [python, "manage.py", "runserver", f"{host}:{port}", "--noreload"],
        }
        quiet = {**os.environ, "CELERY_QUIET_TASKS": "1"}  # no line per routine task; flags are still logged
        processes = {name: subprocess.Popen(cmd, env=quiet) for name, cmd in commands.items()}

        def stop(*_):
            for process in processes.values():
                if process.poll() is None:
                    process.terminate()
            for process in processes.values():
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()

        signal.signal(signal.SIGTERM, lambda *_: (stop(), sys.exit(0)))
        try:
            time.sleep(3)
            broker = "Redis" if settings.REDIS_URL else f"the filesystem ({settings.CELERY_QUEUE_DIR})"
            database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
            self.stdout.write(
                "\n"
                + self.style.SUCCESS("The tournament director is running.")
                + f"\n{demo.describe(demo.summary(), base)}\n"
                + f"  Database: {database}; Celery broker: {broker}.\n"
                + "  Stop with Ctrl+C.\n"
            )
            while True:
                for name, process in processes.items():
                    if process.poll() is not None:
                        self.stderr.write(f"The {name} process stopped (exit code {process.returncode}); stopping.")
                        stop()
                        sys.exit(process.returncode or 1)
                time.sleep(1)
        except KeyboardInterrupt:
            stop()
