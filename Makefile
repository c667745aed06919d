# The two commands: `make run` (set up, migrate, demo data, serve with a worker) and `make test`.
# `make run DEMO=0`: a real event's start: no demo data (any left by an earlier `make run` is removed).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
DEMO ?= 1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint setup migrate demo nodemo real-event worker serve messages bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# From the lock (exact versions, every file's sha256; pip itself among them): two machines install the same
# code. The ranges are requirements*.txt; tools/lock regenerates the locks from them (README, "Installing").
$(STAMP): requirements-test.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-test.lock
	touch $(STAMP)

# The var folder (DJANGO_VAR_DIR, else ./var) is made by the settings themselves.
setup: $(STAMP)

migrate: setup
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo

# No demo: its events and accounts (published passwords) removed; refused while a demo account works at a real event.
nodemo: migrate
	$(BIN)/python manage.py remove_demo

# Serve on http://$(HOST):$(PORT) with gunicorn (config/gunicorn.py, as deployed: Django's runserver is no server
# for a hall of phones) and a Celery worker (and beat) beside it; Ctrl-C stops both (the trap is
# dropped before its kill 0, which else signals the shell itself again and again: a worker left running).
# With DEMO=0 the database gets no demo data (nodemo) instead of the demo (demo), and it is a real event's
# server: DEBUG off (a visitor never sees Django's technical pages or a traceback), plain HTTP on the venue's
# network (no HTTPS redirect, cookies not HTTPS-only), the static files collected for whitenoise, and a
# secret key made once and kept beside the database (DJANGO_SECRET_KEY, when set, wins).
VAR := $(or $(DJANGO_VAR_DIR),var)
REAL_EVENT := DJANGO_DEBUG=0 DJANGO_SECURE_SSL_REDIRECT=0 DJANGO_SESSION_COOKIE_SECURE=0 \
	DJANGO_CSRF_COOKIE_SECURE=0 DJANGO_SECURE_HSTS_SECONDS=0 \
	DJANGO_SECRET_KEY="$${DJANGO_SECRET_KEY:-$$(cat $(VAR)/secret-key)}"
SERVE_ENV := $(if $(filter 0,$(DEMO)),$(REAL_EVENT))
run: $(if $(filter 0,$(DEMO)),nodemo real-event,demo)
	@$(BIN)/python manage.py first_run --address http://$(HOST):$(PORT)
	@echo "Serving on http://$(HOST):$(PORT)/ with a Celery worker; Ctrl-C stops both."
	@trap 'trap - INT TERM; kill 0' INT TERM; \
	$(SERVE_ENV) $(BIN)/celery -A config worker --beat --pool=threads --loglevel=info --concurrency=2 & \
	$(SERVE_ENV) $(BIN)/gunicorn config.wsgi -c config/gunicorn.py --bind $(HOST):$(PORT); \
	trap - INT TERM; kill 0

# A real event's server (make run DEMO=0): its secret key made once, the static files collected.
real-event: setup
	@mkdir -p $(VAR)
	@test -s $(VAR)/secret-key || (umask 077; $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $(VAR)/secret-key)
	@$(REAL_EVENT) $(BIN)/python manage.py collectstatic --noinput -v0

worker: setup
	$(BIN)/celery -A config worker --beat --loglevel=info --concurrency=2

# Lint (ruff) and the import contracts (.importlinter) first: either failing fails the run.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The whole suite, after the lint. Tests use their own var/test folder (queue, cache, SQLite test database).
test: lint
	DJANGO_VAR_DIR=$(CURDIR)/var/test $(BIN)/python -m pytest

# Collect new strings (needs GNU gettext's xgettext), fill them from locale/parts/*.tsv, compile .mo.
messages: setup
	$(BIN)/python manage.py makemessages -l zh_Hans --ignore=.venv --ignore=var --ignore=tests --ignore=bench
	$(BIN)/python manage.py compile_catalogues --merge-parts

# Every bench script prints its figures with their targets (the write benches: the bare Django view's
# figures beside, measured in the same run, and the ratio); the run fails if any target is not met.
bench: setup
	@status=0; for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || status=1; done; exit $$status

clean:
	rm -rf var $(VENV)
