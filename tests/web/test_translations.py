"""English is complete: every Finnish message has an English translation, none left fuzzy."""

from __future__ import annotations

import re
from pathlib import Path

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
