"""Form fields whose label and value stand on separate lines.

A PDF form (an accident report, a trial registration, an invoice) is laid out in boxes: extracted
as text, a box's label and its value often come out as two lines, "Registration:" then "N5921D".
The general case it serves: a line that is only a label (`core.text.FIELD_LABEL`) followed by a
short line that is neither a label, a field, a list item nor a table row, and that no lower-case
line continues, is one field, written back as "Registration: N5921D" so that segmentation keeps it
as one statement and the annotator reads it as a fact like any "Label: value" line.
"""

from __future__ import annotations

import re

from core.knowledge import LoadedDocument
from core.text import FIELD, FIELD_LABEL, words
from core.understanding import read_date

MAX_VALUE_WORDS = 6
"""A box's value is short ("N5921D", "Substantial", "U.S. Secretary of Commerce"); a longer next line
is the prose a heading with a colon introduces ("DOC Workforce :" then a paragraph)."""


def _is_value(line: str, after: str) -> bool:
    """True when `line` reads as a box's value: short, not a label, list item or table row itself,
    and not the first line of a wrapped paragraph (the line after it does not go on in lower case)."""
    bare = line.strip()
    return (
        0 < len(bare.split()) <= MAX_VALUE_WORDS
        and not FIELD_LABEL.match(bare)
        and not FIELD.match(bare)
        and bare[0] not in "-*•+|#>"
        and not after.strip()[:1].islower()
    )


MAX_TITLE_WORDS = 6
MAX_DATE_WORDS = 4
_NAME_WORD = r"(?:[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?|[A-Z][a-z]*[A-Z][a-z]+)"  # Cobert, McGettigan, O'Neil
_POSSESSIVE = re.compile(r"['’]s$")
_SIGNER = re.compile(rf"^\s*(?:(?:Signed|Sincerely),?\s+)?({_NAME_WORD}(?:\s+[A-Z]\.)*(?:\s+{_NAME_WORD}){{1,2}})\s*$")


def _signer(line: str, common: frozenset[str]) -> str | None:
    """The person a line names alone ("Beth F. Cobert", "Signed, Kiran A. Ahuja"), when none of its
    words is one the document writes in lower case elsewhere (so "Acting Director" is no name)."""
    match = _SIGNER.match(line)
    if match is None or any(w.lower() in common for w in words(match[1]) if len(w) > 1):
        return None
    return match[1]


def _title(line: str) -> bool:
    """True for a signer's title on the line after the name: short, capitalised, not a sentence, a
    field nor a date ("Acting Director", "Deputy Secretary", "Chief Financial Officer"). Reports
    capitalise a title wherever they write it, so its words need not be written in lower case."""
    bare = line.strip()
    return (
        0 < len(bare.split()) <= MAX_TITLE_WORDS
        and bare[:1].isupper()
        and not bare.endswith(".")
        and ":" not in bare
        and not _dated(bare)
    )


def _dated(line: str) -> bool:
    """True for a line that is only a date ("February 9, 2016")."""
    return 0 < len(line.split()) <= MAX_DATE_WORDS and read_date(line.strip()) is not None


def join_fields(document: LoadedDocument) -> LoadedDocument:
    """The document with every label line joined to the value line after it, and every signature
    block ("Beth F. Cobert" / "Acting Director" / "February 9, 2016") written as one field.

    General case of the signature: a letter, a message opening a report, a memo or a filing ends
    with its signer's name on a line of its own, their title on the next and the date. Read as
    "Beth F. Cobert: Acting Director, signed February 9, 2016", it is a "Name: Role" fact like a
    stakeholder list's that says what it is, so "who signed the message?" finds it by its role or
    by "signed" (`core.orchestrator.people`).
    The date is required: two capitalised lines alone are as often a heading and a table's first
    cell ("Acting Director" / "MODERNIZING THE CIVIL SERVICE", "Acronym Definition" / "APG …")."""
    common = frozenset(_POSSESSIVE.sub("", w) for block in document.blocks for w in words(block.text) if w.islower())
    changed = False
    blocks = []
    for block in document.blocks:
        lines = block.text.splitlines()
        out: list[str] = []
        index = 0
        while index < len(lines):
            line = lines[index]
            following = lines[index + 1] if index + 1 < len(lines) else ""
            after = lines[index + 2] if index + 2 < len(lines) else ""
            if FIELD_LABEL.match(line) and _is_value(following, after):
                out.append(f"{line.strip()} {following.strip()}")
                index += 2
                changed = True
                continue
            signer = _signer(line, common)
            if signer is not None and _title(following) and _dated(after):
                out.append(f"{signer}: {following.strip()}, signed {after.strip()}")
                index += 3
                changed = True
                continue
            out.append(line)
            index += 1
        blocks.append(block.model_copy(update={"text": "\n".join(out)}) if len(out) != len(lines) else block)
    return document.model_copy(update={"blocks": blocks}) if changed else document
