"""Which retrieved passages become evidence (`core.orchestrator.evidence`), and which of their sentences lead."""

from __future__ import annotations

import datetime as dt

from core.contracts import Evidence
from core.orchestrator.answer import _cited_text
from core.orchestrator.asked_names import names_in
from core.orchestrator.coverage import about_the_names
from core.orchestrator.discourse import continued
from core.orchestrator.evidence import counting, each_named, newest_versions, supporting
from core.orchestrator.extractive import MAX_SENTENCES, candidates, naming_first, rank, restates
from core.orchestrator.support import content_terms
from core.understanding import question_parts
from core.understanding.premise import premise as split_premise

QUESTION = "Who was elected Vice Chairman at the December 2003 meeting?"


def _passage(n: int, text: str, relevance: float) -> Evidence:
    return Evidence(
        doc_id=f"d{n}",
        chunk_id=f"c{n}",
        text=text,
        snippet=text[:40],
        title=f"Meeting record {n}",
        collection="default",
        round_id=1,
        query=QUESTION,
        mode="hybrid",
        relevance=relevance,
    )


def _passages() -> list[Evidence]:
    return [
        _passage(1, "Voting for the action were: Alan Greenspan, Chairman; Timothy Geithner, Vice Chairman.", 0.65),
        _passage(2, "By unanimous vote, Timothy Geithner was elected to serve as Vice Chairman.", 0.40),
        _passage(3, "Housing activity surged in October, and sales of homes stayed brisk.", 0.30),
    ]


def test_far_below_the_best_passage_nothing_supports_in_a_collection() -> None:
    assert [e.chunk_id for e in supporting(_passages(), 0.25)] == ["c1"]


def test_inside_an_occasion_a_passage_carrying_more_of_the_question_s_words_supports() -> None:
    chosen = supporting(_passages(), 0.0, content_terms(QUESTION))
    # "elected" is written only in the minutes' passage; the unrelated one stays out.
    assert [e.chunk_id for e in chosen] == ["c1", "c2"]


def test_inside_an_occasion_each_part_of_a_two_part_question_finds_its_passage() -> None:
    question = "Where did they put the discount rate, and how did they hedge on further firming?"
    rate = _passage(4, "The Board approved an increase in the discount rate to 6 percent.", 0.63)
    firming = _passage(5, "The Committee judges that some further policy firming may yet be needed.", 0.35)
    parts = question_parts(question)
    assert len(parts) == 2
    whole = supporting([rate, firming], 0.0, content_terms(question))
    assert [e.chunk_id for e in whole] == ["c4"]  # the whole question's words: the rate passage leads
    chosen = supporting([rate, firming], 0.0, *map(content_terms, [question, *parts]))
    assert [e.chunk_id for e in chosen] == ["c4", "c5"]


def test_a_passage_that_counts_what_a_how_many_question_counts_is_evidence() -> None:
    question = "How many patent examiners does the Department have?"
    workforce = _passage(4, "Offices: A, B, C. The workforce counts 8,961 patent examiners and 37,000 others.", 0.3)
    plans = _passage(5, "The Department will give patent examiners better search tools.", 0.7)
    relevant = supporting([plans, workforce], 0.25)
    assert [e.chunk_id for e in counting([plans, workforce], relevant, question)] == ["c5", "c4"]
    # Nothing is counted by a question that is not "how many".
    assert counting([plans, workforce], relevant, "What tools will patent examiners get?") == relevant


def test_each_quoted_item_s_own_entry_is_evidence_however_far_its_meaning() -> None:
    question = "What does objective 2.1.1 deploy, and what kind of processes does 4.1.3 want?"
    ids = [n for n in names_in(question) if n.identifier]
    first = _passage(6, "2.1.1. Borders Deter illegal trade through deployment of multi-layered defenses.", 0.77)
    second = _passage(7, "4.1.3. Merchandise Facilitate lawful travel with 21st century processes.", 0.55)
    other = _passage(8, "2.1.2. Illicit Activity Detect and apprehend illicit activity at the borders.", 0.74)
    relevant = supporting([first, other, second], 0.25)
    assert [e.chunk_id for e in relevant] == ["c6", "c8"]  # the margin alone drops 4.1.3's entry
    assert [e.chunk_id for e in each_named([first, other, second], relevant, ids)] == ["c6", "c8", "c7"]
    # An item some evidence already writes adds nothing.
    assert each_named([first, other, second], [first, second], ids) == [first, second]


def test_the_row_of_the_item_a_question_quotes_leads_the_answer() -> None:
    ids = [n for n in names_in("ED APP measure 2.2.B: what's the FY 2022 target?") if n.identifier]
    other = (0, "2.4.D Student Aid App Downloads Target 1,600,000 Number of downloads of the app.")
    asked = (1, "2.2.B Employed Participants Target 18.9 Percentage of participants employed.")
    ranked = [(0.9, other), (0.6, asked)]
    assert naming_first(ranked, [other], ids) == [asked, other]
    # A chosen sentence that writes the item stays as it is; no id, no change.
    assert naming_first(ranked, [asked], ids) == [asked]
    assert naming_first(ranked, [other], []) == [other]


def test_each_item_a_question_quotes_leads_with_its_own_entry_when_none_writes_both() -> None:
    ids = [n for n in names_in("harbour plan: what do objectives 2.3.3 and 4.3.4 each cover?") if n.identifier]
    other = (0, "6.3.3. Stakeholders Senior harbour leaders.")
    first = (1, "2.3.3. Workplaces Conduct berth workplace enforcement.")
    second = (2, "4.3.4. Maritime Defense Conduct maritime defense operations.")
    ranked = [(0.9, other), (0.6, second), (0.5, first)]
    assert naming_first(ranked, [other], ids) == [first, second, other]
    # an id a chosen sentence writes keeps its place
    assert naming_first(ranked, [first, other], ids) == [second, first, other]
    # … among the first four, ahead of chosen sentences that write no id
    others = [(3, "6.3.4. Rights Preserve civil rights."), (4, "4.3.2. Resources Protect marine resources.")]
    ranked = [(0.9, other), (0.8, others[0]), (0.7, second), (0.6, others[1]), (0.5, first)]
    assert naming_first(ranked, [other, others[0], second, others[1]], ids) == [first, second, other, others[0]]


def test_an_opening_phrase_or_pronoun_that_points_back_joins_the_sentence_before() -> None:
    """ "For these reasons, …", "Views differed on this issue, but …" and "He judged …" say what they
    are about only through the sentence before them."""
    minutes = _passage(
        3,
        "Offering term RRPs could marginally increase the Federal Reserve's interest costs. For these "
        "reasons, participants preferred not to offer term RRPs over quarter-end. Mr. Hoenig dissented "
        "because he preferred to leave the rate unchanged. He judged that policy was already quite "
        "stimulative. Members discussed announcing the outcome of a meeting with no policy change. Views "
        "differed on this issue, but most supported a brief and informal indication. Prior to the "
        "conclusion of this meeting, the members discussed the staff forecast.",
        0.6,
    )
    found = candidates([minutes], "Did they offer term RRPs over quarter-end, and why?")
    costs, reasons, dissent, judged, discussed, differed, prior = found
    assert continued([reasons], found) == [costs, reasons]
    assert continued([dissent], found) == [dissent, judged]
    assert continued([discussed], found) == [discussed, differed]
    # "this meeting" after five words of its own is the meeting itself, not the sentence before.
    assert continued([prior], found) == [prior]


def test_a_sentence_set_against_or_added_to_the_one_before_reads_with_it() -> None:
    """ "However, …" says what it qualifies and "The Committee also …" what it adds to only through
    the sentence before; the detail asked is often theirs."""
    minutes = _passage(
        5,
        "Starts of multifamily homes jumped in June. However, the increase could be traced to stricter "
        "building codes. The Committee changed its rules on access. The Committee also allowed First Vice "
        "Presidents to attend meetings. Mr. Also-Smith spoke next.",
        0.6,
    )
    found = candidates([minutes], "Why did multifamily starts jump, and what else did the Committee change?")
    starts, however, rules, also, spoke = found
    assert continued([starts], found) == [starts, however]
    assert continued([rules], found) == [rules, also]
    # Each can be read alone: it does not bring the sentence before it.
    assert continued([also], found) == [also]
    assert continued([however], found) == [however]
    assert continued([also, spoke], found) == [also, spoke]  # a hyphenated name is no "also"


def test_an_opening_phrase_built_on_a_possessive_pronoun_joins_the_sentence_before() -> None:
    """ "In his view, …": a possessive pronoun's opening phrase says whose view only through the
    sentence before it (a dissent's reason, then the view that explains it)."""
    minutes = _passage(
        4,
        "Mr. Lacker dissented because he did not agree with the forward guidance. In his view, the rate "
        "would need to rise considerably sooner. Mr. Lacker prefers to give guidance through projections.",
        0.6,
    )
    found = candidates([minutes], "Why did Lacker dissent, and how did he prefer to give guidance?")
    because, view, prefers = found
    assert continued([because, prefers], found) == [because, view, prefers]


def test_a_sentence_that_points_back_is_read_with_the_one_it_points_at() -> None:
    minutes = _passage(
        6,
        "Net exports were unexpectedly strong in the fourth quarter. In part, this development could be "
        "attributed to a temporary reduction in petroleum imports. Imports were likely to pick up again.",
        0.6,
    )
    other = _passage(7, "These reports said that sales of homes stayed brisk in the fall.", 0.4)
    found = candidates([minutes, other], "Net exports were strong in Q4. What was that put down to?")
    premise, because, later, elsewhere = found
    assert continued([premise, later], found) == [premise, because, later]
    # Only the next sentence of the same passage, and only when it opens by pointing back.
    assert continued([later, premise], found) == [later, premise, because]
    assert continued([later], found) == [later]
    assert elsewhere not in continued([premise], found)
    # A chosen sentence that points back brings the one before it, from its own passage only.
    assert continued([because], found) == [premise, because]
    assert continued([because, premise], found) == [because, premise]
    assert continued([elsewhere], found) == [elsewhere]
    # While the answer has room, and one past a full answer: no chosen sentence makes way for it.
    filler = [(9, f"Filler sentence number {n} here.") for n in range(MAX_SENTENCES - 1)]
    assert continued([premise, *filler], [*found, *filler]) == [premise, because, *filler]
    assert continued([premise, *filler[:-1]], [*found, *filler]) == [premise, because, *filler[:-1]]
    assert continued([because, *filler], [*found, *filler]) == [premise, because, *filler]
    assert continued([premise, because, *filler], [*found, *filler]) == [premise, because, *filler]


def test_a_message_states_its_premise_before_it_asks() -> None:
    assert split_premise("retail data were limited, but what did they say had hindered sales?") == (
        "retail data were limited",
        "what did they say had hindered sales?",
    )
    assert split_premise("Aug 2004 statement: growth had moderated. How did they see the economy?") == (
        "Aug 2004 statement: growth had moderated",
        "How did they see the economy?",
    )
    assert split_premise("When the Committee raised the range in June, what did it say about spending?")[0] == (
        "When the Committee raised the range in June"
    )
    # a message that only asks, or asks twice, states nothing
    for question in ("anyone dissent? what did they want?", "How far did they cut, and who voted against?"):
        assert split_premise(question) == ("", question)


def test_a_question_proper_may_open_with_a_preposition_before_its_wh_word() -> None:
    """ "… at $22 trillion. By what date …?": English fronts a preposition with its wh-word; after a
    comma, "under which" opens a relative clause of the premise, not the question."""
    assert split_premise("minutes say the ceiling was set at $22 trillion - by what date would it bind?") == (
        "minutes say the ceiling was set at $22 trillion",
        "by what date would it bind?",
    )
    assert split_premise("The harbour cut fees. Above what tonnage did the cut apply?")[1] == (
        "Above what tonnage did the cut apply?"
    )
    relative = "The minutes describe the berth programme, under which ships pay less. What did it cost?"
    assert split_premise(relative) == (
        "The minutes describe the berth programme, under which ships pay less",
        "What did it cost?",
    )
    assert split_premise("In which city was it?") == ("", "In which city was it?")


def test_the_sentence_that_restates_the_premise_is_not_the_answer() -> None:
    question = "output growth had moderated and labor improvement had slowed. How did they see the economy ahead?"
    echo = (1, "In recent months, output growth has moderated and the pace of labor improvement has slowed.")
    answer = (1, "The economy appears poised to resume a stronger pace of expansion ahead.")
    found = [echo, answer]
    # Meaning alone puts the restatement first (as the model does); the premise's words push it down.
    ranked = rank(question, found, [s for _, s in found], [0.70, 0.62])
    assert ranked[0][1] == answer
    # Without a premise the same sentences keep their order.
    ranked = rank("How did growth and labor improvement change?", found, [s for _, s in found], [0.70, 0.62])
    assert ranked[0][1] == echo
    # A sentence that carries the premise's words and says more is no restatement.
    said_more = (1, "Output growth had moderated, a pause the Committee expected to reverse as expansion resumed.")
    assert not restates(said_more[1], ["output", "growth", "moderated"], ["economy", "ahead"])
    # A question proper that names nothing of its own ("What was it?") is asked by its premise's words.
    question = "The minutes mention an event on July 15 that left little imprint on markets. What was it?"
    event = (1, "The failed coup attempt in Turkey on July 15 left little imprint on markets.")
    other = (1, "Global stock indexes fell notably over the period.")
    assert rank(question, [other, event], [other[1], event[1]], [0.5, 0.5])[0][1] == event


def test_a_part_of_a_message_is_answered_by_passages_of_its_own_names() -> None:
    question = "KPI 1.3.3 counts WINs - what does WIN stand for? and KPI 1.7.2 tracks milestones toward what?"
    names = [n for n in names_in(question) if n.text == "WIN"]
    win = _passage(9, "KPI 1.3.3 Written Impact Narratives: the number of WIN statements.", 0.7)
    space = _passage(10, "KPI 1.7.2 Milestones achieved toward space situational awareness services.", 0.5)
    parts = question_parts(question)
    assert len(parts) == 2
    # The second part's entry need not write the first part's name.
    assert about_the_names([win, space], names, set(), {"WIN"}, set(), parts, _cited_text) == [win, space]
    # Asked as one question, a passage that does not write the name is not about it.
    assert about_the_names([win, space], names, set(), {"WIN"}, set(), (), _cited_text) == [win]


def test_a_newer_version_drops_the_passages_it_rewrites_not_the_records_it_does_not() -> None:
    def version(n: int, year: int, text: str) -> Evidence:
        return _passage(n, text, 0.7).model_copy(
            update={"title": f"Annual Performance Report Fiscal Year {year}", "date": dt.date(year, 12, 31)}
        )

    old_measure = version(1, 2015, "Percent of retirement claims processed accurately within 60 days: 90 percent.")
    new_measure = version(2, 2022, "Percent of retirement claims processed accurately within 60 days: 94 percent.")
    record = version(3, 2015, "USAJOBS delivered a data warehouse, along with three data visualization dashboards.")
    kept = newest_versions([old_measure, new_measure, record])
    # The newer report restates the measure with its own figure; the 2015 dashboards are recorded only in 2015.
    assert [e.chunk_id for e in kept] == ["c2", "c3"]
