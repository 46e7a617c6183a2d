"""Settings for the test run: the real settings, with a key so DEBUG may stay off."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-server")

from director.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests

# Tasks run inline unless a test starts real workers (tests/conftest.py: celery_workers);
# inline, a confirmation task fires before its deadline and does nothing, as it should.
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER", default=True)  # noqa: F405

# Tests assert on the English messages; the Czech default is tested on purpose
# (tests/test_languages.py) by asking for Czech.
LANGUAGE_CODE = "en"

# No connection outlives its request or thread, so the test database can be dropped
# at the end of the run (the Celery workers the tests start keep theirs, as in
# production: they are stopped before the end).
if "CONN_MAX_AGE" not in os.environ:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# The cache (Redis in CI) is shared with other runs: keys of this run's own.
CACHES["default"]["KEY_PREFIX"] = f"test-{os.getpid()}-{os.urandom(4).hex()}"  # noqa: F405
