"""Abbreviations read from a document's own definitions, and spelled out in a question (issue 21)."""

from __future__ import annotations

from core.understanding.abbreviations import defined_abbreviations, is_name, most_used, spelled_out

TEXT = """The board reviewed the mean time between failures (MTBF) of each pump. Pumps in the
district metered areas (DMAs) were replaced first. The Office of Fleet Safety (OFS) signed off.
Economies (EMEs) and the cost (C) were noted."""


def test_definitions_are_read_from_the_text_and_mis_reads_left_out() -> None:
    found = defined_abbreviations(TEXT)
    assert found["MTBF"] == "mean time between failures"
    assert found["DMAs"] == "district metered areas"
    assert found["OFS"] == "Office of Fleet Safety"
    # One word for a short form, or a short form of one capital, is not a definition a question needs.
    assert "EMEs" not in found and "C" not in found
    assert defined_abbreviations("No parentheses at all.") == {}


def test_the_definition_most_documents_give_wins_as_most_write_it() -> None:
    given = ["reverse repurchase agreement", "Reverse Repurchase Agreement", "reverse repurchase agreement", "x y"]
    assert most_used({"RRP": g} for g in given) == {"RRP": "reverse repurchase agreement"}


def test_a_definition_written_as_a_proper_name_is_a_name() -> None:
    assert is_name("Office of Personnel Management") and is_name("Consolidated Appropriations Act, 2021")
    assert not is_name("interest on excess reserves") and not is_name("diversity, equity, inclusion, and accessibility")
    assert not is_name("Commercial mortgage-backed securities")  # a term that began a sentence


def test_a_question_s_short_forms_are_spelled_out_once_and_only_when_defined() -> None:
    defined = {"MTBF": "mean time between failures", "DMAs": "district metered areas"}
    assert spelled_out("What is the MTBF? Is MTBF rising?", defined) == (
        "What is the MTBF (mean time between failures)? Is MTBF rising?"
    )
    # Written out already, unknown, or typed in lower case: left as asked.
    assert (
        spelled_out("mean time between failures (MTBF) of pumps", defined)
        == "mean time between failures (MTBF) of pumps"
    )
    assert spelled_out("How many PRVs are there?", defined) == "How many PRVs are there?"
    assert spelled_out("what is the mtbf", defined) == "what is the mtbf"
    assert spelled_out("How many DMAs-wide zones?", defined) == "How many DMAs-wide zones?"
