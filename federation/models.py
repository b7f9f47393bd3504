"""An organiser's API token: what lets ``manage.py push_event`` on a venue laptop send an event to the
federation's site (``POST /api/events/import/``). The token itself is shown once, when it is made; the
site keeps only its SHA-256 digest (a leaked database names no usable token) and its first characters,
so that the organiser can tell his tokens apart."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("nimi"), max_length=60)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API-tunnus")
        verbose_name_plural = _("API-tunnukset")
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="api_token_name_not_empty")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
