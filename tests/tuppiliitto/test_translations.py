"""English is complete: every Finnish message has an English translation, none left fuzzy."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"


def entries(text: str):
    for block in text.split("\n\n"):
        if "msgid" not in block or all(line.startswith("#") for line in block.splitlines()):
            continue  # no message, or an obsolete one (#~) that no page uses
        fuzzy = "#, fuzzy" in block or ", fuzzy" in block
        msgid = "".join(re.findall(r'^msgid(?:_plural)? "(.*)"$|^"(.*)"$', block, re.M)[0])
        msgstrs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"', block, re.M)
        yield block, msgid, fuzzy, msgstrs


def test_english_catalogue_is_complete():
    text = PO.read_text(encoding="utf-8")
    missing = []
    for block, _msgid, fuzzy, msgstrs in list(entries(text))[1:]:  # the first block is the header
        continuation = re.search(r'^msgstr(?:\[\d\])? ""\n"', block, re.M)
        if fuzzy or (not continuation and any(s == "" for s in msgstrs)):
            missing.append(block.splitlines()[-2] if len(block.splitlines()) > 1 else block)
    assert not missing, f"{len(missing)} messages lack an English translation: {missing[:10]}"


def msgids(text: str) -> set[str]:
    """Every live message's full msgid (its lines joined; an obsolete #~ one is not live)."""
    found = set()
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        for i, line in enumerate(lines):
            if line.startswith('msgid "'):
                parts = [line[len('msgid "'):-1]]
                parts += [more[1:-1] for more in lines[i + 1:] if more.startswith('"')][: _run(lines, i)]
                found.add("".join(parts))
    found.discard("")  # the header
    return found


def _run(lines: list[str], i: int) -> int:
    """How many continuation lines follow line i."""
    count = 0
    for line in lines[i + 1:]:
        if not line.startswith('"'):
            break
        count += 1
    return count


def test_every_message_of_the_source_is_in_the_catalogue(tmp_path, settings):
    """The catalogue is not only complete in itself but up to date: every message the code and the
    templates mark (as ``makemessages`` finds them now) is in it, so none shows in Finnish on an
    English page. Extracted from a copy of the sources into a scratch catalogue, never the real one."""
    for folder in ("tournaments", "teams", "cup", "tuppiliitto", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        call_command("makemessages", locale=["en"], verbosity=0)
    finally:
        os.chdir(here)
    extracted = msgids((tmp_path / PO.relative_to(ROOT)).read_text("utf-8"))
    known = msgids(PO.read_text(encoding="utf-8"))
    missing = sorted(extracted - known)
    assert not missing, f"{len(missing)} messages are not in the catalogue (run makemessages): {missing[:10]}"
