"""Reading and checking an entry spreadsheet (XLSX or CSV) before anything is saved.

``read_rows`` turns an uploaded file into dictionaries keyed by the (lower-case, Finnish) column names;
``check_rows`` matches each row against the registry and the event and says, in Finnish, what is wrong
with it. Nothing here writes to the database: ``save_rows`` (called only when the organiser accepts the
preview) does, in one transaction, through ``entries.create_pair``.

Columns (header row, any case): pelaaja1_etunimi, pelaaja1_sukunimi, pelaaja1_jasennumero,
pelaaja2_etunimi, pelaaja2_sukunimi, pelaaja2_jasennumero, kerho. The member number columns may be
left out; the club is matched by name or short name, ignoring case.

A row's player is matched by member number when one is given (the name must then agree); otherwise by
first and last name when exactly one registered player has that name; otherwise the player is new and
is created on import (``registry.matching`` matches them).
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import PurePath
from xml.etree.ElementTree import ParseError
from xml.parsers import expat

import openpyxl
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from openpyxl.utils.exceptions import InvalidFileException

from lib.formulas import looks_like_formula
from registry.bans import bans_for, refusal
from registry.matching import Registered, name_key
from registry.models import Club, Player
from tournaments.actions import entries
from tournaments.models import Event, PairMember

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 500
# An .xlsx is a ZIP of XML files: 2 MB of upload can inflate to gigabytes (a decompression bomb). A
# 500-row entry list is well under 1 MB of XML in some 20 files, some 5,000 cells and as many shared
# strings; these limits are ten times that and are checked before openpyxl sees the file.
XLSX_MAX_MEMBERS = 100
XLSX_MAX_UNCOMPRESSED = 10 * 1024 * 1024  # all members together, as the ZIP declares them
XLSX_MAX_ELEMENTS = 200_000  # XML elements in all the XML members together
XLSX_MAX_CELLS = 50_000
XLSX_MAX_SHARED_STRINGS = 50_000
XLSX_MAX_COLUMNS = 60  # columns read from each row; the entry list uses seven
NAME_MAX = Player._meta.get_field("first_name").max_length
MEMBER_NUMBER_MAX = Player._meta.get_field("member_number").max_length

PLAYER_COLUMNS = [
    ("pelaaja1_etunimi", "pelaaja1_sukunimi", "pelaaja1_jasennumero"),
    ("pelaaja2_etunimi", "pelaaja2_sukunimi", "pelaaja2_jasennumero"),
]
CLUB_COLUMN = "kerho"
REQUIRED_COLUMNS = [*(c for cols in PLAYER_COLUMNS for c in cols[:2]), CLUB_COLUMN]
ALL_COLUMNS = [*(c for cols in PLAYER_COLUMNS for c in cols), CLUB_COLUMN]


class ImportFileError(Exception):
    """The file as a whole cannot be read; the message is for the organiser (Finnish)."""


@dataclass
class RowPlayer:
    first_name: str
    last_name: str
    member_number: str
    player_id: int | None = None  # None: a new player is created on import
    registered_number: str = ""  # the registry's member number of a matched player

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_new(self) -> bool:
        return self.player_id is None


@dataclass
class RowResult:
    line: int  # the row's number in the spreadsheet (the header is row 1)
    raw: dict[str, str]
    players: list[RowPlayer] = field(default_factory=list)
    club_id: int | None = None
    club_name: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


# Reading the file ------------------------------------------------------------------------------------


def read_rows(upload) -> list[tuple[int, dict[str, str]]]:
    """Read an uploaded file into ``(line, {column: text})`` pairs; blank rows are left out.

    Raises ``ImportFileError`` for a file that is not .xlsx or .csv, is empty, too big, unreadable, or
    lacks the header row.
    """
    name = getattr(upload, "name", "") or ""
    suffix = PurePath(name).suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise ImportFileError(_("Tuo Excel-tiedosto (.xlsx) tai CSV-tiedosto (.csv)."))
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_BYTES:
        raise ImportFileError(_("Tiedosto on liian suuri: enintään 2 Mt."))
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImportFileError(_("Tiedosto on liian suuri: enintään 2 Mt."))
    if not data.strip():
        raise ImportFileError(_("Tiedosto on tyhjä."))
    table = _xlsx_table(data) if suffix == ".xlsx" else _csv_table(data)
    return _rows_with_header(table)


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a member number typed as a number in Excel: 1001.0 → "1001"
    return " ".join(str(value).split())


def _xlsx_table(data: bytes) -> list[list[str]]:
    # Whatever is wrong inside an uploaded workbook, the organiser gets one message, not a crash.
    unreadable = (
        zipfile.BadZipFile,
        InvalidFileException,
        ParseError,
        KeyError,
        OSError,
        ValueError,
        TypeError,
    )
    try:
        _check_xlsx_size(data)
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            table = []
            rows = workbook.worksheets[0].iter_rows(
                max_row=MAX_ROWS + 50, max_col=XLSX_MAX_COLUMNS, values_only=True
            )
            for row in rows:
                table.append([_cell_text(v) for v in row])
            return table
        finally:
            workbook.close()
    except unreadable as exc:
        raise ImportFileError(
            _("Tiedostoa ei voi lukea: se ei ole kelvollinen Excel-tiedosto (.xlsx).")
        ) from exc


def _check_xlsx_size(data: bytes) -> None:
    """Refuse a workbook too big for an entry list before it is parsed (a decompression bomb).

    The ZIP's declared sizes are checked first; zipfile never inflates a member past its declared size
    (a member that lies about it fails its CRC check), so they bound what is read. Then every XML member
    is streamed once through expat, counting elements, cells and shared strings without building a
    tree; a document type or entity declaration (the "billion laughs") is refused outright.
    """
    unreadable = _("Tiedostoa ei voi lukea: se ei ole kelvollinen Excel-tiedosto (.xlsx).")
    too_big = _("Tiedosto on purettuna liian suuri ilmoittautumislistaksi (yli %(max)d Mt).") % {
        "max": XLSX_MAX_UNCOMPRESSED // (1024 * 1024)
    }
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        if len(members) > XLSX_MAX_MEMBERS:
            raise ImportFileError(too_big)
        if sum(member.file_size for member in members) > XLSX_MAX_UNCOMPRESSED:
            raise ImportFileError(too_big)
        counts = {"elements": 0, "c": 0, "si": 0}

        def start(name, _attributes):
            counts["elements"] += 1
            local = name.rsplit("}", 1)[-1]
            if local in counts:
                counts[local] += 1

        def refuse(*_args):
            raise ImportFileError(unreadable)

        for member in members:
            if not member.filename.endswith((".xml", ".rels")):
                continue
            parser = expat.ParserCreate(namespace_separator="}")
            parser.StartElementHandler = start
            parser.StartDoctypeDeclHandler = refuse
            parser.EntityDeclHandler = refuse
            try:
                with archive.open(member) as stream:
                    while chunk := stream.read(64 * 1024):
                        parser.Parse(chunk, False)
                        if counts["elements"] > XLSX_MAX_ELEMENTS or counts["c"] > XLSX_MAX_CELLS:
                            raise ImportFileError(
                                _("Tiedostossa on liikaa soluja ilmoittautumislistaksi (yli %(max)s).")
                                % {"max": _thousands(XLSX_MAX_CELLS)}
                            )
                        if counts["si"] > XLSX_MAX_SHARED_STRINGS:
                            raise ImportFileError(
                                _("Tiedostossa on liikaa tekstejä ilmoittautumislistaksi (yli %(max)s).")
                                % {"max": _thousands(XLSX_MAX_SHARED_STRINGS)}
                            )
                    parser.Parse(b"", True)
            except expat.ExpatError as exc:
                raise ImportFileError(unreadable) from exc


def _thousands(number: int) -> str:
    return f"{number:,}".replace(",", "\N{NO-BREAK SPACE}")


def _csv_table(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Excel's plain "CSV" in Finnish Windows is Windows-1252, not UTF-8.
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as exc:
            raise ImportFileError(
                _("Tiedoston merkistöä ei tunnistettu: tallenna se UTF-8-muodossa.")
            ) from exc
    if "\x00" in text:
        raise ImportFileError(_("Tiedostoa ei voi lukea: se ei ole CSV-tekstitiedosto."))
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ";" if first_line.count(";") >= first_line.count(",") else ","
    try:
        return [
            [_cell_text(v) for v in row]
            for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        ]
    except csv.Error as exc:
        raise ImportFileError(_("CSV-tiedostoa ei voi lukea: %(error)s") % {"error": exc}) from exc


def _rows_with_header(table: list[list[str]]) -> list[tuple[int, dict[str, str]]]:
    header_at = next((i for i, row in enumerate(table) if any(row)), None)
    if header_at is None:
        raise ImportFileError(_("Tiedosto on tyhjä."))
    header = [cell.strip().lower() for cell in table[header_at]]
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        raise ImportFileError(
            _(
                "Tiedoston ensimmäiseltä riviltä puuttuvat sarakkeet: %(columns)s. Otsikkorivillä on oltava: %(all)s."
            )
            % {"columns": ", ".join(missing), "all": ", ".join(ALL_COLUMNS)}
        )
    index = {column: header.index(column) for column in ALL_COLUMNS if column in header}
    rows = []
    for offset, cells in enumerate(table[header_at + 1 :], start=header_at + 2):
        if not any(cells):
            continue
        rows.append((offset, {column: (cells[i] if i < len(cells) else "") for column, i in index.items()}))
    if not rows:
        raise ImportFileError(_("Tiedostossa ei ole yhtään riviä otsikkorivin jälkeen."))
    if len(rows) > MAX_ROWS:
        raise ImportFileError(_("Tiedostossa on yli %(max)d riviä: jaa se osiin.") % {"max": MAX_ROWS})
    return rows


# Checking the rows -----------------------------------------------------------------------------------


def check_rows(event: Event, rows: list[tuple[int, dict[str, str]]]) -> list[RowResult]:
    """Match every row against the registry and the event; a row with errors is imported only after it
    has been fixed in the file (a banned player's row is refused). A handful of queries whatever the number of rows."""
    numbers = {raw.get(cols[2], "") for _line, raw in rows for cols in PLAYER_COLUMNS} - {""}
    last_names = {raw.get(cols[1], "") for _line, raw in rows for cols in PLAYER_COLUMNS} - {""}
    registered = Registered(numbers, last_names)
    entered = {
        m.player_id: m.pair.number
        for m in PairMember.objects.filter(event=event)
        .select_related("pair")
        .only("player_id", "pair__number")
    }

    results = []
    for line, raw in rows:
        result = RowResult(line=line, raw=raw)
        club_text = raw.get(CLUB_COLUMN, "")
        if not club_text:
            result.errors.append(_("Kerho puuttuu."))
        elif looks_like_formula(club_text):
            result.errors.append(
                _("Kerhon nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi).")
            )
        elif (club := registered.club(club_text)) is None:
            result.errors.append(_("Tuntematon kerho: %(club)s.") % {"club": club_text})
        else:
            result.club_id, result.club_name = club.pk, club.name
        for position, (first_col, last_col, number_col) in enumerate(PLAYER_COLUMNS, start=1):
            player = RowPlayer(raw.get(first_col, ""), raw.get(last_col, ""), raw.get(number_col, ""))
            result.players.append(player)
            _match_player(result, position, player, registered, entered)
        p1, p2 = result.players
        if p1.full_name and p2.full_name and _identity(p1) == _identity(p2):
            result.errors.append(
                _("Sama pelaaja kahdesti samalla rivillä: %(name)s.") % {"name": p1.full_name}
            )
        results.append(result)

    # A registered player banned on the event's dates (issue #29): the row is refused, naming the ban's end.
    banned = bans_for({p.player_id for r in results for p in r.players if p.player_id}, event.starts_on, event.ends_on)
    for result in results:
        for player in result.players:
            if player.player_id in banned:
                result.errors.append(refusal(banned[player.player_id], player.full_name))

    # A player on two rows of the file: both rows are bad, as the file does not say which pair is right.
    rows_of: dict[tuple, list[int]] = {}
    for index, result in enumerate(results):
        for identity in {_identity(p) for p in result.players if p.first_name and p.last_name}:
            rows_of.setdefault(identity, []).append(index)
    for identity, indices in rows_of.items():
        if len(indices) < 2:
            continue
        for index in indices:
            result = results[index]
            name = next(
                p.full_name
                for p in result.players
                if p.first_name and p.last_name and _identity(p) == identity
            )
            lines = ", ".join(str(results[i].line) for i in indices if i != index)
            result.errors.append(
                _("%(name)s on tiedostossa myös rivillä %(lines)s.") % {"name": name, "lines": lines}
            )
    return results


def _identity(player: RowPlayer) -> tuple:
    if player.player_id is not None:
        return ("id", player.player_id)
    if player.member_number:
        return ("number", player.member_number)
    return ("name", *name_key(player.first_name, player.last_name))


def _match_player(result, position, player, registered: Registered, entered) -> None:
    errors = result.errors
    if not player.first_name or not player.last_name:
        if not player.first_name and not player.last_name:
            message = _("Pelaajan %(position)d nimi puuttuu.")
        elif not player.first_name:
            message = _("Pelaajan %(position)d etunimi puuttuu.")
        else:
            message = _("Pelaajan %(position)d sukunimi puuttuu.")
        errors.append(message % {"position": position})
        return
    if looks_like_formula(player.first_name) or looks_like_formula(player.last_name):
        errors.append(
            _("Pelaajan %(position)d nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi).")
            % {"position": position}
        )
        return
    if len(player.first_name) > NAME_MAX or len(player.last_name) > NAME_MAX:
        errors.append(_("Pelaajan %(position)d nimi on liian pitkä.") % {"position": position})
        return
    if len(player.member_number) > MEMBER_NUMBER_MAX:
        errors.append(_("Jäsennumero %(number)s on liian pitkä.") % {"number": player.member_number})
        return
    found = registered.player(player.first_name, player.last_name, player.member_number)
    if found.holder is not None:
        errors.append(
            _("Jäsennumero %(number)s kuuluu pelaajalle %(name)s, ei pelaajalle %(typed)s.")
            % {"number": player.member_number, "name": found.holder.full_name, "typed": player.full_name}
        )
        return
    if found.namesakes:
        numbers = ", ".join(p.member_number or _("ei numeroa") for p in found.namesakes)
        errors.append(
            _("Rekisterissä on %(count)d pelaajaa nimellä %(name)s: anna jäsennumero (%(numbers)s).")
            % {"count": len(found.namesakes), "name": player.full_name, "numbers": numbers}
        )
        return
    if found.player is not None:
        player.player_id = found.player.pk
        player.registered_number = found.player.member_number or ""
    if player.player_id is not None and player.player_id in entered:
        errors.append(
            _("%(name)s on jo parissa %(number)d tässä kisassa.")
            % {"name": player.full_name, "number": entered[player.player_id]}
        )


# Saving ----------------------------------------------------------------------------------------------


def save_rows(event: Event, results: list[RowResult]) -> int:
    """Create the pairs of the good rows (and their new players) in one transaction; returns how many.

    Raises ``ValidationError`` and saves nothing when any pair is refused. A team competition's pairs are
    entered with their teams, not imported.
    """
    if event.kind == Event.Kind.SM_TEAM:
        raise ValidationError(_("Joukkuekisan parit kirjataan joukkueineen joukkuekisan sivulla."), code="team_event")
    good = [r for r in results if r.ok]
    ids = {p.player_id for r in good for p in r.players if p.player_id is not None}
    players = Player.objects.in_bulk(ids)
    clubs = Club.objects.in_bulk({r.club_id for r in good})
    with transaction.atomic():
        for result in good:
            club = clubs[result.club_id]
            pair_players = []
            for row_player in result.players:
                if row_player.player_id is not None:
                    pair_players.append(players[row_player.player_id])
                    continue
                try:
                    with transaction.atomic():
                        new = Player.objects.create(
                            first_name=row_player.first_name,
                            last_name=row_player.last_name,
                            member_number=row_player.member_number or None,
                            club=club,
                        )
                except IntegrityError as exc:  # someone registered that member number meanwhile
                    raise ValidationError(
                        _("Rivi %(line)d: jäsennumero %(number)s on jo käytössä.")
                        % {"line": result.line, "number": row_player.member_number}
                    ) from exc
                pair_players.append(new)
            try:
                entries.create_pair(event, pair_players[0], pair_players[1], club)
            except ValidationError as exc:
                raise ValidationError(
                    _("Rivi %(line)d: %(error)s") % {"line": result.line, "error": " ".join(exc.messages)}
                ) from exc
    return len(good)
