"""Settings for the test suite: production settings (debug off) with what tests need changed.

The database still comes from ``DATABASE_URL``, so the same suite runs on SQLite and PostgreSQL.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("DJANGO_SECURE", "0")  # the test client and live server speak plain HTTP

from tuppiliitto.settings import *  # noqa: E402,F403

# No collectstatic before tests: plain storage instead of the hashed manifest.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast; tests only
ALLOWED_HOSTS = ["*"]
WHITENOISE_AUTOREFRESH = True  # no collectstatic before tests
WHITENOISE_USE_FINDERS = True

# One process: an in-memory cache (emptied before every test by tests/conftest.py).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}

# Every request of a test asks for the event's version afresh (tests change and read within milliseconds).
TUPPI_HEAD_SECONDS = 0

# No background refinement of the cup's reach: a thread finishing in the middle of another test would move
# its cup keys. The tests of cup/reach.py turn it on and wait for it.
TUPPI_CUP_REACH_EXACT_NODES = 0
