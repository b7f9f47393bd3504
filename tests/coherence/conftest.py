import pytest
from django.utils import timezone

from tests.coherence.runner import FrozenClock


@pytest.fixture
def frozen(monkeypatch):
    """The clock stands still while pages are fetched (``runner.FrozenClock``)."""
    clock = FrozenClock()
    monkeypatch.setattr(timezone, "now", clock.now)
    return clock
