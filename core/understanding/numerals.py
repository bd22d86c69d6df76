"""How a figure is written: a number, a document's numbered part (a reference, not a measure), and
the words that scale a figure or make it a rate."""

from __future__ import annotations

import re

# A figure: digits grouped by commas ("54,443"; a comma after the digits is punctuation: "in 2026, the
# Department …", "on Feb. 25, yields …"), a decimal or a fraction; not a clock time or the second term
# of a ratio ("1:35 p.m.", "3:1"), nor a figure a hyphen joins to the word before it: that is part of
# a name ("COVID-19", "F-35", "Title-IX"), it measures nothing.
NUMBER = re.compile(
    r"(?<![\w.:])(?<![^\W\d_]-)(?:\d(?:[\d,]*\d)?(?:\.\d+)?|\d+\s*/\s*\d+|\d+-\d+/\d+)(?![\w])(?!:\d\d)"
)
# A document's numbered part, named by its kind ("Objective 1.3", "Table 4.3 A", "page 37", "KPI 5.4.3",
# PDF text's "Objective 1 .3") or by a number of three parts or more ("goal 5.2.1"): a reference,
# it measures nothing.
ITEM = re.compile(
    r"\b(?:objective|goal|table|figure|section|chapter|page|appendix|part|title|measure|indicator|strategy|"
    r"priority|tactic|kpi|exhibit|phase|item)s?\s+\d+(?:\s?\.\s?[0-9A-Za-z]{1,3})*(?!\w|\.\w)"
    r"|(?<![\w.])\d{1,2}(?:\.[0-9A-Za-z]{1,3}){2,}(?!\w|\.\w)",
    re.I,
)
SCALE = r"thousand|million|billion|trillion"
RATE_UNITS = r"percent|per\s+cent|percentage\s+points?|basis\s+points?"
