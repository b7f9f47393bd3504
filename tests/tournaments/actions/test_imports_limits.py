"""Bounded imports: an .xlsx that inflates beyond what a 500-row entry list needs (uncompressed size,
XML elements, cells, shared strings) is refused with a Finnish message before openpyxl parses it, never
holding 100 MB (memory, not time: a busy machine moves a time, not the work done), through the page as through ``importer.read_rows``."""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.support.entries_helpers import HEADER
from tournaments.actions import imports as importer

NS = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
SHEET = "xl/worksheets/sheet1.xml"


def base_workbook(rows=None) -> bytes:
    book = openpyxl.Workbook()
    for row in rows or [HEADER.split(";")]:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def replace_member(name: str, chunks, *, extra: dict[str, bytes] | None = None) -> bytes:
    """A copy of the base workbook with member ``name`` written from ``chunks`` (an iterable of bytes)."""
    source = zipfile.ZipFile(io.BytesIO(base_workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for member in source.namelist():
            if member == name:
                with target.open(member, "w") as stream:
                    for chunk in chunks:
                        stream.write(chunk)
            else:
                target.writestr(member, source.read(member))
        for member, data in (extra or {}).items():
            target.writestr(member, data)
    return out.getvalue()


def sheet_bomb(megabytes: int) -> bytes:
    row = b'<row><c t="inlineStr"><is><t>x</t></is></c></row>' * 10_000
    repeats = megabytes * 1024 * 1024 // len(row)
    return replace_member(SHEET, [NS, b"<sheetData>", *(row for _ in range(repeats)), b"</sheetData></worksheet>"])


def lie_about_sizes(data: bytes, member: str, declared: int) -> bytes:
    """The ZIP with ``member``'s uncompressed size declared as ``declared`` in both of its headers."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    patched = bytearray(data)
    struct.pack_into("<I", patched, info.header_offset + 22, declared)  # the local file header
    central = patched.rfind(b"PK\x05\x06")
    offset = struct.unpack_from("<I", patched, central + 16)[0]
    while patched[offset : offset + 4] == b"PK\x01\x02":
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", patched, offset + 28)
        if bytes(patched[offset + 46 : offset + 46 + name_len]).decode() == member:
            struct.pack_into("<I", patched, offset + 24, declared)
        offset += 46 + name_len + extra_len + comment_len
    return bytes(patched)


class Upload(io.BytesIO):
    def __init__(self, data: bytes, name: str = "parit.xlsx"):
        super().__init__(data)
        self.name, self.size = name, len(data)


def refused_quickly(data: bytes) -> str:
    """``read_rows`` refuses ``data``; returns the message, asserting it never held 100 MB (the refusal
    comes before the file is inflated: a measure of work that, unlike a time, a busy machine cannot move)."""
    tracemalloc.start()
    try:
        with pytest.raises(importer.ImportFileError) as refusal:
            importer.read_rows(Upload(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024 * 1024, peak
    return str(refusal.value)


def test_a_few_hundred_kilobytes_that_inflate_to_200_mb_are_refused():
    data = sheet_bomb(200)
    assert len(data) < 1024 * 1024
    assert refused_quickly(data) == "Tiedosto on purettuna liian suuri ilmoittautumislistaksi (yli 10 Mt)."


def test_a_bomb_that_lies_about_its_size_is_refused():
    # Declared as 1 kB: zipfile stops inflating there and the CRC check fails: unreadable, quickly.
    data = lie_about_sizes(sheet_bomb(200), SHEET, 1000)
    assert zipfile.ZipFile(io.BytesIO(data)).getinfo(SHEET).file_size == 1000
    assert refused_quickly(data) == "Tiedostoa ei voi lukea: se ei ole kelvollinen Excel-tiedosto (.xlsx)."


def test_too_many_cells_within_the_size_limit():
    cells = b"".join(b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (i, i) for i in range(1, 60_001))
    data = replace_member(SHEET, [NS, b"<sheetData>", cells, b"</sheetData></worksheet>"])
    assert refused_quickly(data) == "Tiedostossa on liikaa soluja ilmoittautumislistaksi (yli 50\xa0000)."


def test_too_many_shared_strings_within_the_size_limit():
    strings = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' + b"<si><t>a</t></si>" * 60_000 + b"</sst>"
    data = replace_member(SHEET, [NS, b"<sheetData/></worksheet>"], extra={"xl/sharedStrings.xml": strings})
    assert refused_quickly(data) == "Tiedostossa on liikaa tekstejä ilmoittautumislistaksi (yli 50\xa0000)."


def test_too_many_members():
    extra = {f"xl/media/image{i}.bin": b"" for i in range(200)}
    data = replace_member("docProps/app.xml", [b"<Properties/>"], extra=extra)
    assert "purettuna liian suuri" in refused_quickly(data)


def test_an_entity_declaration_is_refused():
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
        + NS + b"<sheetData><row><c t=\"inlineStr\"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>"
    )
    data = replace_member(SHEET, [laughs])
    assert refused_quickly(data) == "Tiedostoa ei voi lukea: se ei ole kelvollinen Excel-tiedosto (.xlsx)."


def test_a_huge_declared_dimension_does_not_slow_reading():
    # <dimension ref="A1:XFD1048576"> would have read-only openpyxl pad every row to 16,384 columns
    rows = b"".join(
        b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>pelaaja1_etunimi</t></is></c></row>' % (i, i)
        for i in range(1, 21)
    )
    data = replace_member(
        SHEET, [NS, b'<dimension ref="A1:XFD1048576"/><sheetData>', rows, b"</sheetData></worksheet>"]
    )
    tracemalloc.start()
    try:
        with pytest.raises(importer.ImportFileError, match="puuttuvat sarakkeet"):
            importer.read_rows(Upload(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # read to the declared width, 20 rows of 16,384 cells take some 4 MB; read to the columns used, 0.2 MB
    assert peak < 2 * 1024 * 1024, peak


def test_a_500_row_entry_list_is_still_read():
    rows = [HEADER.split(";")] + [
        [f"Etu{i}", f"Suku{i}", f"{1000 + i}", f"Toinen{i}", f"Pari{i}", f"{5000 + i}", "SoTK"] for i in range(500)
    ]
    read = importer.read_rows(Upload(base_workbook(rows)))
    assert len(read) == 500 and read[-1][1]["pelaaja2_sukunimi"] == "Pari499"


def test_the_page_says_so(logged_in, make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    upload = SimpleUploadedFile("pommi.xlsx", sheet_bomb(100))
    response = logged_in.post(reverse("organiser:import", args=[event.slug]), {"file": upload})
    assert response.status_code == 200
    assert "Tiedosto on purettuna liian suuri ilmoittautumislistaksi (yli 10 Mt)." in response.content.decode()
