"""Pure helpers: text splitting, key terms, RRF and calibration."""

from __future__ import annotations

import pytest

from adapters.search.embedded_lexical import LexicalIndex
from core.calibration import Calibration, band_for, reason_for_band
from core.fusion import reciprocal_rank_fusion
from core.knowledge import SearchHit, Segment
from core.orchestrator.asked_names import names_in
from core.orchestrator.extractive import echoes, readable
from core.orchestrator.measures import dates_it
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
from core.understanding.answers import asks_money, asks_share, states_share
from core.understanding.asked_figures import asks_date, states_date
from core.understanding.counting import counted, counts, counts_something


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


def test_a_sentence_counts_what_a_how_many_question_counts() -> None:
    nouns = {stem(w) for w in counted("How many patent examiners does the office have?")}
    assert nouns == {stem("patent"), stem("examiners")}
    assert counts("The office employs 8,961 patent examiners and 300 clerks.", nouns)
    assert counts("It hired about 1.2 thousand examiners.", nouns)
    assert not counts("The office will give patent examiners 10 more hours a case.", nouns)
    assert not counts("In 2022 examiners searched more prior art.", nouns)
    assert counted("What did the office say about examiners?") == []


def test_what_is_counted_may_open_with_a_determiner_or_an_adjective_the_stop_list_holds() -> None:
    assert counted("How many new cutters will the Coast Guard commission?") == ["cutters"]
    assert counted("how many of the hardware devices were end-of-life?") == ["hardware", "devices"]
    assert counted("By FY 2017, how many of OPM's FISMA systems had MFA?") == ["OPM", "FISMA", "systems"]
    assert counted("how many more was that than in FY21?") == []  # a difference, not a noun
    assert counted("and about how many of them generate hazardous waste?") == []


def test_a_count_asked_in_round_figures_counts_what_follows_the_scale() -> None:
    assert counted("how many billions of dollars moved out of prime funds?") == ["dollars", "moved"]
    assert counted("How many thousands of jobs were added?") == ["jobs"]
    dollars = {stem(w) for w in counted("how many billions of dollars moved out of prime funds?")}
    assert counts("About $120 billion moved out of prime funds.", dollars)
    # Before, "billions" was what was counted, and a date's day counted it by another word.
    assert not counts("Reforms took effect on October 14 and assets shifted out of prime funds.", dollars)


def test_on_what_date_is_answered_by_a_date_said_of_what_it_asks() -> None:
    question = "On what date did OPM issue the Schedule A hiring authority?"
    assert dates_it(question, "ES issued the Schedule A hiring authority on March 20, 2020. [1]", set())
    # Before: any date in the answer was the date asked, here another event's.
    assert not dates_it(
        question, "ES issued the Schedule A hiring authority. [1] OPM scheduled one review in February 2020. [2]", set()
    )
    assert dates_it("On what date?", "The notice is dated June 3, 2021.", set())  # nothing else asked: any date


def test_a_word_written_without_its_vowels_contracts_it() -> None:
    assert contracts("stmt", "statement") and contracts("stmts", "statement") and contracts("mtg", "meeting")
    assert contracts("rpt", "report")
    # A word with vowels is a word of its own ("set", "sent" are no "statement"); so is a mere initial.
    assert not contracts("set", "statement") and not contracts("sent", "statement")
    assert not contracts("st", "statement") and not contracts("sts", "statement")
    assert not contracts("mbs", "minutes")  # letters out of the word's order


def test_a_count_is_read_the_ways_english_writes_one() -> None:
    def nouns(question: str) -> set[str]:
        return {stem(w) for w in counted(question)}

    bureaus = nouns("How many bureaus does the ministry oversee?")
    assert counts("The Minister oversees eleven bureaus, each with its own budget.", bureaus)  # number words
    assert not counts("Each of the bureaus has its own budget.", bureaus)
    notices = nouns("How many CRB notices went out?")
    assert counts("The office issued 14 Claims Review Board (CRB) notices in June.", notices)
    assert counts("Number of visitors to the Harbor Museum FY 2019 FY 2020 41,250 12,800", nouns("How many visitors?"))
    assert not counts("The number of visitors fell in FY 2020.", nouns("How many visitors?"))  # a year is no count
    # a score or a percent after "the number of X" defines a measure, counts nothing; a scale counts
    enrolled = nouns("How many enrollment transactions per day?")
    assert not counts("The number of employees enrolled in plans with a score of at least 0.6", enrolled)
    assert not counts("The number of visitors was 4.5 percent higher.", nouns("How many visitors?"))
    assert counts("The number of visitors reached 1.2 million.", nouns("How many visitors?"))
    assert counts("The bank will buy a further $80 billion of bonds.", nouns("How many dollars of bonds?"))
    assert not counts("The bank will buy 80 bonds.", nouns("How many dollars of bonds will it buy?"))
    assert counts("Passenger Injuries: 2 Minor", nouns("How many passengers were hurt?"))  # a form's field
    assert not counts("Passenger Injuries: None", nouns("How many passengers were hurt?"))
    ftes = nouns("How many FTEs did the agency have?")
    assert counts("At year end the agency had 5,016 full-time equivalent employees.", ftes)  # the short form spelled
    assert not counts("At year end the agency had 5,016 contractors on site.", ftes)


def test_money_is_asked_the_ways_english_asks_for_it() -> None:
    assert asks_money("what's the estimated cost of fixing the ten bridges?")  # "what's" is "what is"
    assert asks_money("harbour plan - what does a berth permit cost per vessel?")
    assert asks_money("What did the move cost?")
    assert not asks_money("What did the plan say about cost controls?")
    assert not asks_money("By how much did costs fall?")
    assert not asks_money("what was being added to base prices for higher energy and steel prices?")
    assert asks_money("What was the estimated dollar cost of the storm damage?")
    # "How much did costs go up" asks how far they moved, as "by how much" does: a percentage answers.
    assert not asks_money("how much did weighted average drug costs go up over the previous year?")
    assert not asks_money("How much did health costs rise in 2013?")
    assert asks_money("how much did the agency pay in fees, and did the fee increase?")
    assert asks_money("How much did the move cost?")
    # "How much is the fee" asks money as "what is the fee" does; "how much is the increase" does not.
    assert asks_money("objective 1.5.3: how much is the fee USPTO will charge to extend the response time?")
    assert not asks_money("how much is the increase?")
    # "Which" picks one of a kind: which costs, not how much they were.
    assert not asks_money(
        "a couple of participants flagged trouble in agriculture. which input costs were they pointing to?"
    )
    assert asks_money("what new minimum fee did the agency set?")
    # the unit after the noun asks for it: "… in euros?", "… in percent?"
    assert asks_money("What was the harbour's capital shortfall in euros?") and not asks_money("… in berths?")
    assert asks_share("what were the new toll bands, in percent?") and not asks_share("who was in percent club?")


def test_a_share_is_asked_and_stated_the_ways_english_writes_one() -> None:
    assert asks_share("What percentage of claims were processed within 60 days?")
    assert asks_share("and roughly what share of its leases expire by 2027?")
    assert asks_share("In FY 2017, what percent of calls did the centre handle?")
    assert not asks_share("What was the company's closing share price?")  # a share price is a price
    assert not asks_share("How many claims were processed?")
    for stated in (
        "57.3%",
        "Sixty-eight percent of them",
        "up 23 percentage points",
        "8 out of 25 agencies",
        "ten of the eleven policies",
        "one in five workers",
        "about two-thirds",
        "a majority",
        "a third of the banks",
        "three quarters of respondents",
        "about half.",
    ):
        assert states_share(stated), stated
    for unstated in ("Performance Measure 2.2.2 Percentage of clients", "Target 85 Actual 83", "in 2022", "12 berths"):
        assert not states_share(unstated), unstated


def test_a_half_or_a_quarter_of_a_year_or_a_step_is_no_share() -> None:
    for period in (
        "showed the second quarter of 2015 as the most likely date for liftoff",
        "growth in the fourth quarter",
        "in the first half of 2015",
        "a quarter-point cut",
        "a half-point increase",
    ):
        assert not states_share(period), period


def test_a_calendar_date_is_asked_by_name_and_stated_as_one() -> None:
    assert asks_date("On what date was the order signed?")
    assert asks_date("through what date were the swap lines extended?")
    assert asks_date("From which day did she serve, per the minutes?")
    assert not asks_date("What date guidance did the dissenters object to?")  # "date" names the guidance
    assert not asks_date("When was the bureau set up?")  # a year, a quarter or an occasion may answer
    for stated in ("signed June 14, 2017.", "effective 1 March.", "as of 2021-01-20", "in March 2020", "on Tuesday"):
        assert states_date(stated), stated
    for unstated in ("The order set up an initiative on hiring.", "in FY 2022", "within six months", "Q3 2023"):
        assert not states_date(unstated), unstated


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
