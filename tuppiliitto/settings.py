"""Django settings for the Tuppiliitto tournament system.

Every setting that differs between a laptop and production comes from the environment:

- ``DATABASE_URL``: default an SQLite file ``db.sqlite3`` in the project folder; ``postgres://…`` selects
  PostgreSQL. Any other scheme stops start-up with a message naming the variable.
- ``DJANGO_DEBUG``: off unless set to 1/true/yes/on.
- ``DJANGO_SECRET_KEY``: required when debug is off; a clear error at start-up otherwise.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated host names (default: localhost names only).
- ``DJANGO_CSRF_TRUSTED_ORIGINS``: comma-separated origins, for a proxy that serves another host name.
- ``DJANGO_SECURE``: with debug off, HTTPS-only cookies, HSTS and redirects are on; set it to 0 to serve
  plain HTTP in production-like settings on a closed network (``make run`` does not need it: it runs
  with debug on).
- ``DJANGO_TRUSTED_PROXIES``: how many proxies (nginx, Caddy) stand in front of the site, each adding
  the address it saw to ``X-Forwarded-For``; login throttling counts failures by that address. 0 (the
  default): the connection's own address.
"""

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from lib.env import (
    cache_from_env,
    database_from_env,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", default=False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        # A fixed key is fine for a developer's laptop: nothing it signs leaves the machine.
        SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105
    else:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. It is required when DJANGO_DEBUG is off: set DJANGO_SECRET_KEY "
            "to a long random string (for example: python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or set DJANGO_DEBUG=1 on a development machine."
        )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "csp",
    "django_tables2",
    "registry",
    "tournaments",
    "cup",
    "teams",
    "federation",
    "archive",
]

MIDDLEWARE = [
    "tuppiliitto.middleware.RefuseNulMiddleware",
    "tuppiliitto.middleware.PrivatePagesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "lib.http.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tuppiliitto.middleware.FinnishFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "tuppiliitto.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tuppiliitto.wsgi.application"

DATABASES = {"default": database_from_env(BASE_DIR)}

# The shared cache of derived snapshots and page fragments (lib/caching.py): see CACHE_URL. It
# fails open (lib/cache.py: a cache that does not answer makes pages slower, never down), and its keys
# start with a digest of the database, so two sites sharing var/cache never read each other's entries.
CACHES = {"default": cache_from_env(BASE_DIR, DATABASES)}

# The rules' two switches (RULES.md §3 and §4), passed explicitly into the rules engine:
# an overwhelming points win is read on the winner's total (the Decision) or on the margin;
# the first standings step is match points (the Decision) or match wins.
TUPPI_OVERWHELMING_RULE = env_choice(
    "TUPPI_OVERWHELMING_RULE", ("winner_total", "margin"), default="winner_total"
)
# Live pages (tournaments/readmodel/live.py): how long a process remembers an event's version before it asks again
# (a poll then costs no query; a change shows within that moment), and whether a change computes the
# event's new snapshot as it commits, in the saving request, so that no poll waits for it.
TUPPI_HEAD_SECONDS = env_float("TUPPI_HEAD_SECONDS", default=0.25, maximum=5)
TUPPI_PREBUILD = env_bool("TUPPI_PREBUILD", default=True)
# The cup's "what do I need" (cup/reach.py): where the request-time computation leaves a fixed pair's worst
# a bound, an integer programme of at most this many branch-and-cut nodes a row decides it in a background
# thread, kept in the caches; 0 turns it off.
TUPPI_CUP_REACH_EXACT_NODES = env_int("TUPPI_CUP_REACH_EXACT_NODES", default=1000, maximum=1_000_000)

# The address printed links and QR codes give (a venue laptop's on the local network, or the public
# site); empty: the host each page was requested from.
TUPPI_PUBLIC_URL = env_url("TUPPI_PUBLIC_URL")
TUPPI_STANDINGS_FIRST = env_choice("TUPPI_STANDINGS_FIRST", ("match_points", "wins"), default="match_points")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): 5 failed attempts for one user name from one address within 15 minutes
# lock that user name out from that address for 15 minutes; the login page says so (tuppiliitto/logins.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tuppiliitto.logins.locked_out"
AXES_CLIENT_IP_CALLABLE = "tuppiliitto.logins.client_address"
AXES_USERNAME_CALLABLE = "tuppiliitto.logins.attempt_username"
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organiser:home"
LOGOUT_REDIRECT_URL = "home"

# Finnish first, English complete.
LANGUAGE_CODE = "fi"
LANGUAGES = [("fi", _("suomi")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Helsinki"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Production hardening: on whenever debug is off, unless DJANGO_SECURE=0 says the site is served over
# plain HTTP on a closed network.
SECURE = env_bool("DJANGO_SECURE", default=not DEBUG)
if SECURE:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (django-csp 4): the site's own scripts, styles, images and fonts only; no inline
# script, event handler, <style> or style attribute anywhere (htmx is told not to add its own <style>:
# base.html). img-src also allows data: for the QR codes the team page draws as data: URIs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a refused request (403, 400…) in one line, without a traceback; server errors keep theirs
    "filters": {"one_line_client_errors": {"()": "tuppiliitto.logfilters.OneLineClientErrors"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_client_errors"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
