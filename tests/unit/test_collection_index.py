"""A table that lists the collection's files is its index: the files it lists, the kind it gives each."""

from __future__ import annotations

from pathlib import Path

from core.ingest.index import listed_files, with_kind
from core.knowledge import SourceTable

ROOT = Path("/data/committee")
FILES = {ROOT / "minutes/2013/m-0918.txt", ROOT / "statements/2013/s-0918.txt", ROOT / "minutes/2013/m-1030.txt"}


def _table(rows: list[list[str]]) -> SourceTable:
    return SourceTable(columns=["doc_id", "doc_type", "meeting", "path", "duplicate_of"], rows=rows)


def test_a_table_whose_column_names_the_files_is_an_index_with_their_kinds() -> None:
    table = _table(
        [
            ["m-0918", "minutes", "2013-09-18", "minutes/2013/m-0918.txt", ""],
            ["s-0918", "statement", "2013-09-18", "statements/2013/s-0918.txt", ""],
            ["m-1030", "minutes", "2013-10-30", "minutes/2013/m-1030.txt", "m-0918"],
        ]
    )
    assert listed_files(table, ROOT, [ROOT], FILES) == {
        ROOT / "minutes/2013/m-0918.txt": "minutes",
        ROOT / "statements/2013/s-0918.txt": "statement",
        ROOT / "minutes/2013/m-1030.txt": "minutes",
    }


def test_paths_are_read_from_the_table_s_folder_too_and_a_kindless_index_is_still_one() -> None:
    table = SourceTable(columns=["file", "pages"], rows=[["2013/m-0918.txt", "12"], ["2013/m-1030.txt", "9"]])
    assert listed_files(table, ROOT / "minutes", [ROOT], FILES) == {
        ROOT / "minutes/2013/m-0918.txt": None,
        ROOT / "minutes/2013/m-1030.txt": None,
    }


def test_a_table_of_other_things_is_no_index() -> None:
    # URLs and dates name no file of the run; one listed file is a mention, not an index.
    log = SourceTable(
        columns=["url", "meeting_date"],
        rows=[
            ["https://example.org/minutes/20130918.htm", "September 18, 2013"],
            ["https://example.org/x.htm", "May 1"],
        ],
    )
    assert listed_files(log, ROOT, [ROOT], FILES) == {}
    one = _table([["m-0918", "minutes", "2013-09-18", "minutes/2013/m-0918.txt", ""], ["x", "note", "", "", ""]])
    assert listed_files(one, ROOT, [ROOT], FILES) == {}


def test_the_kind_leads_a_title_that_does_not_say_it() -> None:
    assert with_kind("MeetingDate=2013 09 17 UploadedOn=20131009", "minutes") == (
        "Minutes: MeetingDate=2013 09 17 UploadedOn=20131009"
    )
    assert with_kind("Minutes of the Federal Open Market Committee", "minutes") == (
        "Minutes of the Federal Open Market Committee"
    )
