"""Searching names without their diacritics: "kivela" finds Kivelä, "hakan" Håkan, "sjoberg" Sjöberg.

One table says which letters fold to which, for the query (in Python) and for the column (in SQL), so
both sides fold alike, with no database extension (PostgreSQL's ``unaccent`` needs one) and no extra
column: on PostgreSQL the column is folded by ``translate()`` (one call, a letter for a letter) and
``replace()`` for the few letters that become two; on SQLite by this module's own ``fold``, registered as
an SQL function on the connection. Only the table's letters lose their marks: "ae" is not "ä" (a
spelling some typists use), and case is left to ``icontains``.
"""

from __future__ import annotations

from django.db.models import CharField, Func, Q, Value
from django.db.models.functions import Replace

from registry.models import Player

# The letters of Finnish, Swedish and the names common in the registry, lower and upper case.
LETTERS = {
    "ä": "a", "å": "a", "á": "a", "à": "a", "â": "a", "ã": "a", "æ": "ae",
    "ö": "o", "ø": "o", "ó": "o", "ò": "o", "ô": "o", "õ": "o",
    "é": "e", "è": "e", "ê": "e", "ë": "e",
    "ü": "u", "ú": "u", "ù": "u", "û": "u",
    "í": "i", "ì": "i", "î": "i", "ï": "i",
    "š": "s", "ž": "z", "ç": "c", "ñ": "n", "ý": "y",
}
FOLD = {**LETTERS, **{k.upper(): v.upper() for k, v in LETTERS.items()}}
_TABLE = str.maketrans(FOLD)
SQLITE_FUNCTION = "tuppi_fold"


def fold(text: str | None) -> str | None:
    """``text`` with the table's letters folded (case is kept: the database compares without it)."""
    return text.translate(_TABLE) if text is not None else None


class Folded(Func):
    """A text column folded by the table, in SQL."""

    output_field = CharField()

    def __init__(self, expression, **extra):
        super().__init__(expression, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        connection.ensure_connection()
        connection.connection.create_function(SQLITE_FUNCTION, 1, fold, deterministic=True)
        return self.as_sql(compiler, connection, function=SQLITE_FUNCTION.upper(), **extra)

    def as_postgresql(self, compiler, connection, **extra):
        single = {k: v for k, v in FOLD.items() if len(v) == 1}
        expression = Func(
            self.source_expressions[0],
            Value("".join(single)),
            Value("".join(single.values())),
            function="TRANSLATE",
            output_field=CharField(),
        )
        for letter, plain in FOLD.items():
            if len(plain) > 1:
                expression = Replace(expression, Value(letter), Value(plain))
        return expression.as_sql(compiler, connection, **extra)

    def as_sql(self, compiler, connection, function=None, **extra):
        if function is None and connection.vendor not in ("sqlite", "postgresql"):
            raise NotImplementedError(f"folding names is not written for {connection.vendor}")
        return super().as_sql(compiler, connection, function=function, **extra)


def folded(field: str) -> Folded:
    """The database expression of the column ``field`` folded by the table."""
    return Folded(field)


# The player search of the entry forms (a pair, a replacement, a team's players and substitute).
SEARCH_LIMIT = 15
SEARCH_MIN_LENGTH = 2


def search_players(query: str, limit: int = SEARCH_LIMIT) -> list[Player]:
    """Players whose first name, last name or member number contains every word of ``query``, without
    regard to case or diacritics ("kivela" finds Kivelä)."""
    words = query.split()
    if len(query.strip()) < SEARCH_MIN_LENGTH or not words:
        return []
    condition = Q()
    for word in words[:4]:
        plain = fold(word)
        condition &= (
            Q(first_folded__icontains=plain) | Q(last_folded__icontains=plain) | Q(member_number__startswith=word)
        )
    return list(
        Player.objects.alias(first_folded=folded("first_name"), last_folded=folded("last_name"))
        .filter(condition)
        .select_related("club")
        .order_by("last_name", "first_name")[:limit]
    )
