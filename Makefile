# The README's two commands: `make run` (set up and serve the demo on SQLite) and `make test` (all tests).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
PG_URL ?= postgres://postgres@127.0.0.1:5432/tuppiliitto

.PHONY: run venue test test-fast install lint messages pytest-sqlite pytest-postgres

$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check uv==0.13.9
	$(VENV)/bin/uv pip sync --quiet --python $(PY) requirements.lock
	$(VENV)/bin/uv pip install --quiet --python $(PY) --no-deps -e .
	touch $@

install: $(VENV)/.installed

messages: install
	DJANGO_DEBUG=1 $(MANAGE) compilemessages --ignore=$(VENV) -v 0

run: export DJANGO_DEBUG ?= 1
run: install
	./scripts/system-deps.sh
	$(MAKE) messages
	$(MANAGE) migrate --no-input -v 0
	$(MANAGE) setup_demo
	$(MANAGE) runserver 127.0.0.1:8000

# An event from the organiser's laptop: the site on the local network (gunicorn, production settings,
# SQLite), printouts pointing at the laptop's address. VENUE_ARGS: e.g. --address 192.168.1.20 --port 8080
venue: install
	./scripts/system-deps.sh
	$(MANAGE) venue $(VENUE_ARGS)

lint: install
	$(VENV)/bin/ruff check .

test: install
	./scripts/system-deps.sh --browser
	$(MAKE) lint messages
	$(MAKE) pytest-sqlite
	@if $(PY) scripts/postgres-available.py; then $(MAKE) pytest-postgres; \
	else echo "No PostgreSQL at 127.0.0.1:5432: the PostgreSQL run is skipped."; fi

# The daily loop: everything that needs no browser and no large simulation, on SQLite, on both cores.
test-fast: install
	$(MAKE) messages
	DATABASE_URL= $(PY) -m pytest -q -m "not slow and not browser" -n 2 --dist load --maxschedchunk 1

pytest-sqlite: install
	DATABASE_URL= $(PY) -m pytest -n 2 --dist load --maxschedchunk 1

pytest-postgres: install
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -n 2 --dist load --maxschedchunk 1
