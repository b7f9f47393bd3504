"""Making, checking and revoking an organiser's API tokens (``federation.models.ApiToken``)."""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone

from federation.models import ApiToken

PREFIX = "tpt_"  # a Tuppi token: recognisable in a leaked log or a config file


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make(user, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the token itself, which is shown once and kept nowhere."""
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(user=user, name=name.strip(), digest=digest(token), prefix=token[:10])
    return row, token


def revoke(user, pk: int) -> bool:
    """Revoke ``user``'s token ``pk``; False when he has no such token still in force."""
    return bool(ApiToken.objects.filter(user=user, pk=pk, revoked_at__isnull=True).update(revoked_at=timezone.now()))


def holder(header: str | None):
    """The active user whose token the ``Authorization: Token …`` header carries, else None; its use is noted."""
    scheme, _, token = (header or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "token" or not token.startswith(PREFIX) or len(token) > 200:
        return None
    row = ApiToken.objects.select_related("user").filter(digest=digest(token), revoked_at__isnull=True).first()
    if row is None or not row.user.is_active:
        return None
    ApiToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row.user
