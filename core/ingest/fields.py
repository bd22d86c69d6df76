"""Form fields whose label and value stand on separate lines.

A PDF form (an accident report, a trial registration, an invoice) is laid out in boxes: extracted
as text, a box's label and its value often come out as two lines, "Registration:" then "N5921D".
The general case it serves: a line that is only a label (`core.text.FIELD_LABEL`) followed by a
short line that is neither a label, a field, a list item nor a table row, and that no lower-case
line continues, is one field, written back as "Registration: N5921D" so that segmentation keeps it
as one statement and the annotator reads it as a fact like any "Label: value" line.
"""

from __future__ import annotations

from core.knowledge import LoadedDocument
from core.text import FIELD, FIELD_LABEL

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


def join_fields(document: LoadedDocument) -> LoadedDocument:
    """The document with every label line joined to the value line after it."""
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
            out.append(line)
            index += 1
        blocks.append(block.model_copy(update={"text": "\n".join(out)}) if len(out) != len(lines) else block)
    return document.model_copy(update={"blocks": blocks}) if changed else document
