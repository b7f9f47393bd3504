"""A digest of plain values that names exactly what they hold: two values give the same digest only when
every part of them is equal, in every process and on every machine.

It is the key of whatever is rendered from those values (a page, its live part, a JSON answer), so what
is stored under a key and the ETag a phone keeps can never name other values than those shown.
:func:`canonical` walks dataclasses field by field, mappings, sequences and sets; a value that has a
``fingerprint_identity`` (a snapshot computed from one version of its facts) stands for itself by that
identity. A model instance stands for its own columns (its label, primary key and every concrete field's
value, foreign keys as ids): the rows a template may reach through its relations are not in its digest,
so a page showing them must hold them too, or stand on a source whose identity covers them. Anything
else is refused with ``TypeError``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import hashlib
from collections.abc import Mapping

from django.utils.functional import Promise

_SCALARS = (str, int, float, bool, type(None), bytes, decimal.Decimal, dt.date, dt.time, dt.timedelta)


def digest(*values, size: int = 12) -> str:
    """The hexadecimal digest of ``values`` (``size`` bytes)."""
    return hashlib.blake2b(canonical(values).encode(), digest_size=size).hexdigest()


def canonical(value) -> str:
    """``value`` as text that differs whenever any part of it differs."""
    out: list[str] = []
    _walk(value, out, {})
    return "".join(out)


def _walk(value, out: list[str], seen: dict[int, int]) -> None:  # noqa: C901 (one case a kind of value)
    if isinstance(value, _SCALARS) or isinstance(value, dt.datetime):
        out.append(type(value).__name__[0] + repr(value))
        return
    if isinstance(value, enum.Enum):
        out.append(f"E{type(value).__name__}.{value.value!r}")
        return
    if isinstance(value, Promise):  # a lazily translated text: as the active language shows it
        out.append("s" + repr(str(value)))
        return
    identity = getattr(value, "fingerprint_identity", None)
    if identity is not None:
        out.append(f"I{type(value).__name__}:{identity}")
        return
    marker = seen.get(id(value))
    if marker is not None:  # the same object again (one pair in many places): said once
        out.append(f"@{marker}")
        return
    meta = getattr(value, "_meta", None)
    if meta is not None and hasattr(meta, "concrete_fields") and not isinstance(value, type):  # a model row
        out.append(f"M{meta.label}:")
        _walk(tuple(f.value_from_object(value) for f in meta.concrete_fields), out, {})
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen[id(value)] = len(seen)
        out.append(f"D{type(value).__qualname__}(")
        for f in dataclasses.fields(value):
            out.append(f.name + "=")
            _walk(getattr(value, f.name), out, seen)
            out.append(",")
        out.append(")")
        return
    if isinstance(value, Mapping):
        seen[id(value)] = len(seen)
        out.append("{")
        for k, v in sorted(value.items(), key=lambda kv: canonical(kv[0])):
            _walk(k, out, seen)
            out.append(":")
            _walk(v, out, seen)
            out.append(",")
        out.append("}")
        return
    if isinstance(value, list | tuple):  # named tuples too: their fields in order
        seen[id(value)] = len(seen)
        out.append(f"{type(value).__name__}[")
        for item in value:
            _walk(item, out, seen)
            out.append(",")
        out.append("]")
        return
    if isinstance(value, set | frozenset):
        out.append("S[" + ",".join(sorted(canonical(v) for v in value)) + "]")
        return
    raise TypeError(f"{type(value).__module__}.{type(value).__qualname__} is not a plain value: it cannot be fingerprinted")
