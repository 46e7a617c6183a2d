# Two commands do everything on a fresh machine with only Python 3.11+:
#   make run   - the product with its demo: web server, Celery worker and beat
#   make test  - the whole test suite
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test install lint format bench clean

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime

# DEBUG=1 unless you say otherwise: the demo runs with the development secret key.
run: export DEBUG ?= 1
run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py runstack

test: $(VENV)/.dev
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(VENV)/.dev
	$(PY) bench/draw.py

# Clock timeouts enforced by a real Celery worker and beat (bench/timeouts.py). Needs
# PostgreSQL and Redis in the environment, else it exits with status 2:
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/director  (the server: the bench creates
#                and drops its own database bench_timeouts there)
#   REDIS_URL=redis://127.0.0.1:6379/0  (the broker; the bench uses a queue of its own)
# SECRET_KEY is optional (a throw-away key is made); BENCH_ARGS passes options, e.g.
#   make bench-timeouts BENCH_ARGS="--clocks 200 --move-seconds 3"
.PHONY: bench-timeouts
bench-timeouts: $(VENV)/.dev
	$(PY) bench/timeouts.py $(BENCH_ARGS)

# The public page under load: gunicorn on PostgreSQL and Redis, measured with wrk (Debian's
# package; installed if missing), while results come in at 10 a second (bench/load.py).
# Same variables as bench-timeouts; e.g. make bench-load BENCH_ARGS="--players 256 --threads 8"
.PHONY: bench-load
bench-load: $(VENV)/.dev
	$(PY) bench/load.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
