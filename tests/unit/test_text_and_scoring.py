"""Pure helpers: text splitting, key terms, RRF and calibration."""

from __future__ import annotations

import pytest

from adapters.search.embedded_lexical import LexicalIndex
from core.calibration import Calibration, band_for, reason_for_band
from core.fusion import reciprocal_rank_fusion
from core.knowledge import SearchHit, Segment
from core.orchestrator.asked_names import names_in
from core.orchestrator.extractive import echoes, readable
from core.orchestrator.routes import hits_to_evidence
from core.orchestrator.support import (
    acronym_spelled,
    by_honorific,
    found_terms,
    led_by_acronym,
    mentions,
    with_initials,
    written_in_parts,
)
from core.text import contents_listing, contracts, key_terms, normalize_text, snippet, split_sentences, stem
from core.understanding.counting import counts_something


def test_split_sentences_joins_wrapped_lines_and_keeps_list_items() -> None:
    text = "Parents get 20 weeks of\nparental leave. After that, unpaid leave.\n- item one\n| Width | 1 m |"
    assert split_sentences(text) == [
        "Parents get 20 weeks of parental leave.",
        "After that, unpaid leave.",
        "item one",
        "| Width | 1 m |",
    ]


def test_a_line_that_stops_mid_sentence_goes_on_in_a_line_that_looks_like_a_field() -> None:
    text = (
        "OPM set five standards against which\n"
        "OPM conducted the assessment: (1) leadership involvement, (2) data.\n"
        "Results: published in May."
    )
    assert split_sentences(text) == [
        "OPM set five standards against which OPM conducted the assessment: (1) leadership involvement, (2) data.",
        "Results: published in May.",
    ]
    # A heading or a finished sentence before a field leaves the field its own unit.
    assert split_sentences("TABLE 9.03B\nPERFORMANCE MEASURE: Percent of plans") == [
        "TABLE 9.03B",
        "PERFORMANCE MEASURE: Percent of plans",
    ]


def test_key_terms_drop_stopwords_and_duplicates() -> None:
    assert key_terms("What is the hotel limit for the hotel in 2024?") == ["hotel", "limit", "2024"]
    # One stop-list: request words ("latest", "total") and possessives go too.
    assert key_terms("What is OPM's latest total headcount?") == ["opm", "headcount"]
    assert key_terms("What is the VA's target in FY 22? Is it on track?") == ["va", "target", "fy", "22", "track"]
    # A contraction is its first word: "couldn't" is "could", "where'd" is "where".
    assert key_terms("Why couldn't they track it, and where'd the rate land?") == ["track", "rate", "land"]


def test_contents_entries_are_not_answer_sentences() -> None:
    assert readable("Workforce ......................... 27") == ""
    assert readable("Regulation & Research . . . . . 14") == ""
    assert readable("| Width | 1,134 mm |") == "Width: 1,134 mm"
    assert readable("The limit is EUR 150 a night.") == "The limit is EUR 150 a night."
    # A PDF producer's object names are ids, not words: the sentence reads without them.
    named = "_a4529b7a-badb-11ec-b51f-cc2efa82ea00 Real Estate Solutions ~ GSA leverages real estate trends."
    assert readable(named) == "Real Estate Solutions ~ GSA leverages real estate trends."
    # So are a template's unfilled numbered slots.
    slots = "PLACEHOLDER_59 PLACEHOLDER_60 Performance Indicators LTPG 3.2.1 Timely Inspection Reports"
    assert readable(slots) == "Performance Indicators LTPG 3.2.1 Timely Inspection Reports"
    assert readable("Covid-19 and FY2022_final drafts") == "Covid-19 and FY2022_final drafts"


def test_names_keep_their_small_words() -> None:
    texts = [n.text for n in names_in("How many staff does the Department of Energy have, per Northwind and Contoso?")]
    assert texts == ["Department of Energy", "Northwind", "Contoso"]


def test_names_keep_runs_of_small_words() -> None:
    # Before: "of the" broke the name into "Department" and "Interior", so the owner of the plan asked
    # about was never required of the passage that answered.
    texts = [n.text for n in names_in("What's the mission in the Department of the Interior's 2022 plan?")]
    assert texts == ["Department of the Interior"]


def test_an_initialism_with_full_stops_is_one_word_of_a_name() -> None:
    # Before: "U.S." was read as the name "U S", which no source writes, so an answer from a passage
    # about "U.S. imports" was withheld as "not about U S".
    named = names_in("what one-time payments were part of U.S. imports, and did the U.K. budget matter?")
    assert [(n.text, n.variants) for n in named] == [("U.S.", ["u.s."]), ("U.K.", ["u.k."])]
    assert mentions("the strength of the U.S. economy", names_in("U.S. imports?")[0].variants)
    assert [n.text for n in names_in("Who heads the U.S. Department of Labor?")] == ["U.S. Department of Labor"]
    assert [n.text for n in names_in("What did John F. Kennedy say?")] == ["John F. Kennedy"]
    # an initial that is also a stop-word ("I", "A") is still the name's: not "Charles" and "Plosser"
    assert [n.text for n in names_in("Why did Charles I. Plosser dissent?")] == ["Charles I. Plosser"]
    assert [n.text for n in names_in("Did Plosser dissent? I think so.")] == ["Plosser"]


def test_a_numbered_item_a_question_quotes_is_an_id() -> None:
    named = names_in("ED FY22 APP measure 2.2.B (adult ed participants): what's the target for KPI 3.2.1.1?")
    assert [(n.text, n.identifier) for n in named if n.identifier] == [("2.2.B", True), ("3.2.1.1", True)]
    assert "B" not in [n.text for n in named]  # the item's letter is no name
    # A figure or a date with dots is not an item.
    assert not [n for n in names_in("It rose 4.4 points to 1.2 m on 10.1.2023") if n.identifier]


def test_numbers_written_with_dots_are_also_whole_search_tokens() -> None:
    tokens = LexicalIndex.tokens("Measure 2.2.B: 68.5 percent, 1,657,608 downloads")
    assert {"2.2.b", "68.5"} <= set(tokens) and {"measur", "2", "b", "68", "5"} <= set(tokens)
    assert "1,657,608" not in tokens  # a thousands separator is no dot


def test_the_mark_of_redacted_data_is_no_name() -> None:
    # Inside one occasion's documents every name of several words must be cited: "REDACTED CARD" was one.
    assert names_in("My card [REDACTED CARD] was declined: what is the hotel limit in 2024?") == []


def test_stem_matches_inflections() -> None:
    assert stem("policies") == stem("policy") == "polici"
    assert stem("receipts") == stem("receipt")
    assert stem("priced") == stem("prices") == stem("Price")


def test_snippet_is_bounded_and_cut_at_a_word() -> None:
    text = "word " * 100
    cut = snippet(text, 50)
    assert len(cut) <= 50 and cut.endswith("…") and not cut.endswith(" …")
    assert snippet("short text") == "short text"


def test_normalize_strips_controls_and_spaces() -> None:
    assert normalize_text("  Hello\u200b\x07   world \n\n next ") == "Hello world\nnext"


def test_rrf_sums_reciprocal_ranks_with_k_60() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "a"]])
    assert list(fused) == ["a", "b", "c"] or list(fused) == ["b", "a", "c"]
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["c"] == pytest.approx(1 / 63)
    assert list(reciprocal_rank_fusion([["x", "y"], ["y"]])) == ["y", "x"]


def test_calibration_levels_and_monotone_mapping() -> None:
    calibration = Calibration(model="m")
    assert [calibration.level(s) for s in (0.6, 0.45, 0.3, 0.1)] == ["high", "medium", "low", "insufficient"]
    points = [calibration.calibrated(x / 100) for x in range(0, 101)]
    assert points == sorted(points) and points[0] == 0.0 and points[-1] == 1.0
    assert calibration.calibrated(calibration.medium) == pytest.approx(0.5)
    assert calibration.calibrated(calibration.high) == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("confidence", "band", "reason"),
    [
        (0.95, "high", "confidence_high"),
        (0.80, "high", "confidence_high"),
        (0.75, "caveated", "confidence_medium_caveated"),
        (0.55, "partial", "confidence_low_partial"),
        (0.2, "low", "confidence_too_low_clarify"),
    ],
)
def test_bands(confidence: float, band: str, reason: str) -> None:
    assert band_for(confidence) == band
    assert reason_for_band(band_for(confidence)) == reason


def test_a_name_is_mentioned_only_as_words_of_its_own() -> None:
    # A short name inside a longer word is not written: "epa" in "department", "opm" in "development".
    assert not mentions("The Department of Labor's development plan", ["epa", "opm", "dol"])
    assert mentions("EPA's plan", ["epa"]) and mentions("an OPM-wide survey", ["opm"])
    assert mentions("the Office of  Personnel\nManagement", ["office of personnel management"])
    assert mentions("U.S. policy", ["u.s"]) and not mentions("the K-900X", ["k-900"])
    assert not mentions("anything at all", [])


def test_a_title_and_its_body_are_written_part_by_part() -> None:
    record = "Joan E. Lovett was selected as Manager for Domestic Operations, System Open Market Account."
    assert written_in_parts(record, "Manager for Domestic Operations of the System Open Market Account")
    assert not written_in_parts(record, "Manager for Foreign Operations of the System Open Market Account")
    # A part of one word stays bound to the rest: any text may write "Department" and "Energy".
    assert not written_in_parts("The Department will cut energy use.", "Department of Energy")
    assert not written_in_parts(record, "Domestic Operations")


def test_a_table_of_contents_is_not_evidence() -> None:
    contents = "Contents\nMessage from the Acting Secretary ........ 3\nGoal 1: Counter Terrorism ........ 5\nWorkforce ........ 27"
    prose = "Kevin K. McAleenan: Acting Secretary. The plan names six goals.\nSee page 27 ........ for the workforce."
    assert contents_listing(contents) and not contents_listing(prose) and not contents_listing("")
    # A chunk that cut the contents after an entry keeps the next entry's number alone.
    assert contents_listing("4. Government Operations........................34\n4.1.")
    assert contents_listing("...............................") and not contents_listing("4.1.")

    def hit(n: int, text: str) -> SearchHit:
        segment = Segment(chunk_id=f"c{n}", doc_id="plan", collection="default", position=n, text=text, title="Plan")
        return SearchHit(segment=segment, cosine=0.9 - n / 100)

    # The contents page ranks first, yet the three places one document has go to what it points at.
    hits = [hit(0, contents), *(hit(n, f"Goal {n} sets out what the agency will do.") for n in range(1, 5))]
    assert [e.chunk_id for e in hits_to_evidence(hits, 1, "goals", "hybrid")] == ["c1", "c2", "c3"]


def test_the_copy_of_a_chosen_sentence_in_another_source_is_cited_with_it() -> None:
    decision = "The Committee decided today to lower its target for the overnight rate to 2 percent."
    found = [(0, decision), (1, "Members discussed the outlook for inflation."), (1, decision), (2, decision)]
    # However low the copies rank, both other sources are cited beside the first.
    assert echoes([(0, decision)], found, {}) == {(0, decision): [1, 2]}
    other = "The Committee decided today to lower its target for the overnight rate to 1-3/4 percent."
    assert echoes([(0, decision)], [(0, decision), (1, other)], {}) == {(0, decision): []}


def test_a_source_writes_an_acronym_with_dots_and_a_name_in_full() -> None:
    assert found_terms(["us", "territories"], "support the five U.S. Territories") == {"us", "territories"}
    # "Fed" is the clipped start of "Federal"; "fe" is too short to be one, "fedora" no clipping.
    assert found_terms(["fed", "fe", "fedora"], "The Federal Reserve raised its rate.") == {"fed"}


def test_a_compound_is_found_with_or_without_its_hyphen() -> None:
    text = "changes in the Bank of Canada's asset purchase program weighed on big-bank stocks"
    assert found_terms(["asset-purchase", "big", "bank", "stock"], text) == {"asset-purchase", "big", "bank", "stock"}
    # the parts must all be written: "asset" alone is not "asset-backed"
    assert found_terms(["asset-backed"], text) == set()


def test_a_name_the_question_spells_out_is_found_as_the_acronym_a_source_writes() -> None:
    terms = ["date", "national", "background", "investigations", "bureau", "established"]
    found = found_terms(terms, "The NBIB was formally established on October 1, 2016.")
    assert found == {"national", "background", "investigations", "bureau", "established"}
    # Two letters spell too much by chance ("US", "IT"); the run must spell the whole acronym.
    assert found_terms(["united", "states", "budget"], "The US budget") == {"budget"}
    assert found_terms(["national", "bureau"], "The NBIB said") == set()


def test_an_acronym_is_found_spelled_out_in_a_cited_title() -> None:
    title = "U.S. Department of Education FY 2022 Annual Performance Plan: 1.3.G Adult Enrollees 70,000"
    assert acronym_spelled("APP", title)
    assert not acronym_spelled("APR", title)
    assert not acronym_spelled("ED", title)  # two letters spell too much by chance
    assert not acronym_spelled("app", title)  # a word, not a short form


def test_a_name_led_by_a_body_s_short_form_is_written_part_by_part() -> None:
    minutes = "Timothy F. Geithner was elected Vice Chairman of the Federal Open Market Committee."
    assert led_by_acronym(minutes, "FOMC Vice Chairman")  # the short form spelled out
    assert led_by_acronym("The FOMC elected a Vice Chairman.", "FOMC Vice Chairman")
    assert not led_by_acronym(minutes, "FOMC Deputy Secretary")  # the title is not written
    assert not led_by_acronym("The Vice Chairman of the bank spoke.", "FOMC Vice Chairman")  # nor the body
    assert not led_by_acronym(minutes, "Vice Chairman")  # no short form leads it


def test_a_person_is_written_by_honorific_and_surname() -> None:
    assert by_honorific("Ms. George dissented because she saw the outlook as positive.", "Esther George")
    assert by_honorific("Mses. George and Mester and Mr. Rosengren dissented.", "Esther George")
    assert by_honorific("Mses. George and Mester and Mr. Rosengren dissented.", "Eric S. Rosengren")
    assert not by_honorific("Mr. Hoenig dissented.", "Esther George")  # another person
    assert not by_honorific("George Street was closed.", "Esther George")  # no honorific
    assert not by_honorific("Dr. Canada spoke.", "Bank of Canada")  # not a person's name


def test_a_person_is_written_with_middle_initials() -> None:
    vote = "Voting against the action were Richard W. Fisher and Charles I. Plosser, who believed …"
    assert with_initials(vote, "Charles Plosser") and with_initials(vote, "Richard Fisher")
    assert with_initials("Mary C. J. Daly spoke.", "Mary Daly")
    assert not with_initials(vote, "Charles Fisher")  # another person
    assert not with_initials("The Open Market Desk", "Open Desk")  # no initials between the words


def test_a_figure_beside_a_series_label_or_a_score_counts_nothing() -> None:
    # A flattened table row: "22" stands beside its column's label, "18.2" is a score.
    row = "Target Actual Target Met 2025-10-01 2026-09-30 22 Actual Baseline 2021-09-30 18.2 Strategy 3.2.2."
    assert not counts_something(row)
    assert counts_something("In FY 2021 the agency granted 22 waivers.")
    assert counts_something("OPM hired 1.2 million workers.")


def test_a_word_written_without_its_vowels_contracts_it() -> None:
    assert contracts("stmt", "statement") and contracts("stmts", "statement") and contracts("mtg", "meeting")
    assert contracts("rpt", "report")
    # A word with vowels is a word of its own ("set", "sent" are no "statement"); so is a mere initial.
    assert not contracts("set", "statement") and not contracts("sent", "statement")
    assert not contracts("st", "statement") and not contracts("sts", "statement")
    assert not contracts("mbs", "minutes")  # letters out of the word's order
