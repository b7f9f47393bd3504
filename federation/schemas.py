"""The documents that move between installations, checked against their JSON Schemas in ``docs/``
(draft 2020-12, the ``jsonschema`` package) before anything is read from them."""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

DOCS = Path(__file__).resolve().parent.parent / "docs"


class Invalid(ValueError):
    """The document does not follow its schema: the message names where and what."""


@cache
def validator(name: str) -> Draft202012Validator:
    schema = json.loads((DOCS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def check_registry(doc: object) -> None:
    """Refuse ``doc`` unless it is a registry document (``docs/tuppi-registry.schema.json``) whose dates exist."""
    errors = sorted(validator("tuppi-registry.schema.json").iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(the document)"
        raise Invalid(f"{where}: {first.message}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))
    for kind, fields in (("transfers", ("confirmed_on",)), ("bans", ("starts_on", "ends_on", "decided_on"))):
        for i, row in enumerate(doc[kind]):  # type: ignore[index]
            for name in fields:
                try:
                    dt.date.fromisoformat(row[name])
                except ValueError:
                    raise Invalid(f"{kind}/{i}/{name}: {row[name]!r} is no date") from None
    for i, row in enumerate(doc["bans"]):  # type: ignore[index]
        if row["ends_on"] < row["starts_on"]:
            raise Invalid(f"bans/{i}: it ends ({row['ends_on']}) before it starts ({row['starts_on']})")
