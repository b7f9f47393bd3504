"""Logging filters used by settings.LOGGING."""

from __future__ import annotations

import logging


class OneLineClientErrors(logging.Filter):
    """A refused request (a 4xx: 403 for a missing permission, 400 for a bad request…) is logged in one
    line, without the traceback Django attaches to the PermissionDenied or SuspiciousOperation behind it.
    Server errors (5xx) keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        client_error = isinstance(status, int) and 400 <= status < 500
        if client_error or record.name.startswith("django.security"):
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
            message = record.getMessage()
            if "\n" in message or "\r" in message:
                record.msg = message.replace("\r", "\\r").replace("\n", "\\n")
                record.args = ()
        return True
