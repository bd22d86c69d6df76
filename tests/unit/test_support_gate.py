"""The support gate inside one occasion's documents: a cosine does not judge there, a model's grade
and the question's words do."""

from __future__ import annotations

import datetime as dt

from core.contracts import Citation, Evidence, ExecutionPlan
from core.orchestrator.asked_names import Name, names_in
from core.orchestrator.coverage import placed
from core.orchestrator.state import Draft, GraphState, Reflection
from core.orchestrator.steering import Steering
from core.orchestrator.support import writes
from core.understanding import quarter_mentions
from tests.answer_writer import TURN, WRITER

TEXT = "The Committee decided to raise the target range for the federal funds rate to 1/4 to 1/2 percent."


def _gate(support: float, words: float, *, occasion: bool, graded: bool) -> str | None:
    state = GraphState(turn=TURN, occasion=occasion)
    return WRITER._gate(support, words, [], state, (TEXT, TEXT), {"c1"}, graded=graded)


def test_inside_an_occasion_a_low_measured_support_does_not_withhold() -> None:
    assert _gate(0.3, 0.6, occasion=False, graded=False) is not None
    assert _gate(0.3, 0.6, occasion=True, graded=False) is None


def test_inside_an_occasion_a_model_s_low_grade_and_too_few_words_still_withhold() -> None:
    assert _gate(0.3, 0.6, occasion=True, graded=True) is not None
    assert _gate(0.9, 0.3, occasion=True, graded=False) is not None


def test_a_name_is_written_in_any_of_the_ways_a_source_writes_it() -> None:
    def name(text: str) -> Name:
        return Name(text=text, variants=[text.lower()])

    title = "U.S. Department of Education FY 2022 Annual Performance Plan: 4.3.A IT Security Functions Target 80"
    assert writes(title, name("APP"))  # spelled out in the cited title
    minutes = "Timothy F. Geithner was elected to serve as Vice Chairman of the Federal Open Market Committee."
    assert writes(minutes, name("FOMC Vice Chairman"))  # led by the body's short form
    record = "Manager for Domestic Operations, System Open Market Account, reported on operations."
    assert writes(record, name("Manager for Domestic Operations of the System Open Market Account"))
    assert not writes(minutes, name("Deputy Secretary"))
    # title case leaves "with", "of the" in lower case inside a name the acronym spells
    plan = "Monitor the eight states for their implementation of Individuals with Disabilities Education Act rules."
    assert writes(plan, name("IDEA"))
    assert writes("The Bureau of the Fiscal Service paid it.", name("BFS"))
    # a name asked in one order ("Commerce Department") that the text writes by the other's acronym
    assert writes("Strategic Plan 2022-2026 — DOC: Expand data products.", name("Commerce Department"))
    assert not writes("Strategic Plan 2022-2026 — DOL: Expand data products.", name("Commerce Department"))
    assert not writes("Individuals with disabilities were educated.", name("IDEA"))
    # a table writes the body by its initials; the question spells it out
    table = "Employee Engagement Index - HUD 61.40 62.00 Employee Engagement Index - DOE 63.40 64.90"
    assert writes(table, name("Department of Energy"))
    assert not writes(table, name("Department of Education and Labor"))
    assert not writes("The doe grazed by the harbour.", name("Department of Energy"))
    # an acronym may keep the small words' letters ("BOJ" for "Bank of Japan")
    assert writes("The Bank of Japan kept its policy rate unchanged.", name("BOJ"))
    assert not writes("The Bank of Korea kept its policy rate unchanged.", name("BOJ"))


def test_a_possessive_ends_the_name_it_follows() -> None:
    """ "the Committee's Treasury purchases" names the Committee and Treasuries, not a "Committee
    Treasury" that no source writes."""
    asked = "What change to the Committee's Treasury purchases did they have in mind?"
    assert [n.text for n in names_in(asked)] == ["Committee", "Treasury"]
    assert [n.text for n in names_in("What did the Bank of Japan's board decide?")] == ["Bank of Japan"]


def test_a_comma_ends_a_name_and_a_small_word_left_at_its_end_is_not_the_name_s() -> None:
    """ "After Hurricane Katrina, the September 2005 minutes …" names "Hurricane Katrina", not "Hurricane
    Katrina the" (which no source writes); "Bank of Canada, the Fed" names two."""
    asked = "After Hurricane Katrina, the September 2005 minutes said the pace was uncertain. What did it depend on?"
    assert [n.text for n in names_in(asked)] == ["Hurricane Katrina"]
    assert [n.text for n in names_in("what did the Bank of Canada, the Fed and the ECB do?")] == [
        "Bank of Canada",
        "Fed",
        "ECB",
    ]
    assert [n.text for n in names_in("What did the Department of the Interior say?")] == ["Department of the Interior"]
    # an acronym defined in brackets is one more way to write the name before it
    (options,) = names_in("how many options did the Berth Access Programme (BAP) offer?")
    assert options.text == "Berth Access Programme" and writes("33 options through BAP.", options)


def test_a_name_only_the_premise_writes_is_written_by_the_answer_s_document() -> None:
    """Inside one occasion's documents the premise names what places the question ("After the Pier Nine
    fire, the May minutes said …"); the sentence that answers need not repeat it, but a passage of its
    document must. A name the question proper asks about must be written by the cited passage itself."""
    storm = Name(text="Pier Nine", variants=["pier nine"])
    placing = "After the Pier Nine fire, the May minutes said repairs were slow. What did they depend on?"
    asking = "What did the board say the Pier Nine repairs depended on?"
    answer = "Repairs depended on how soon the berths could be inspected again."
    other = "The Pier Nine fire closed four berths in April."

    def passage(doc: str, n: int, text: str) -> Evidence:
        return Evidence(
            doc_id=doc, chunk_id=f"c{n}", kind="segment", text=text, snippet=text, title="Minutes",
            collection="default", round_id=1, query="q", mode="hybrid", relevance=0.9,
        )  # fmt: skip

    def gate(question: str, passages: list[tuple[str, str]], occasion: bool = True) -> str | None:
        evidence = [passage(doc, n, text) for n, (doc, text) in enumerate(passages, 1)]
        plan = ExecutionPlan(original_query=question, revised_query=question)
        steering = Steering(names=[storm], writers={"Pier Nine": ["may", "june"]})
        state = GraphState(turn=TURN, plan=plan, evidence=evidence, steering=steering, occasion=occasion)
        return WRITER._gate(0.9, 0.9, [], state, (answer, answer), {"c1"})

    assert placed(placing, [storm]) == {"Pier Nine"} and placed(asking, [storm]) == set()
    assert gate(placing, [("may", answer), ("may", other)]) is None
    reason = gate(placing, [("may", answer), ("june", other)])  # another document writes it
    assert reason is not None and "not about Pier Nine" in reason
    reason = gate(asking, [("may", answer), ("may", other)])
    assert reason is not None and "not about Pier Nine" in reason
    # across a long report (no one occasion's documents) the premise's name places the passage itself
    reason = gate(placing, [("may", answer), ("may", other)], occasion=False)
    assert reason is not None and "not about Pier Nine" in reason


def test_a_figure_written_without_its_leading_zero_keeps_its_point() -> None:
    text = "Of $82 billion paid, $304 million, or .37 percent, were improper."
    evidence = Evidence(
        doc_id="d1", chunk_id="c1", kind="segment", text=text, snippet=text, title="Report",
        collection="default", round_id=1, query="q", mode="hybrid", relevance=0.9,
    )  # fmt: skip
    citation = Citation(n=1, doc_id="d1", chunk_id="c1", title="Report", snippet=text, relevance=0.9)
    draft = Draft(text=f"{text} [1] The rate fell [7].", citations=[citation])
    state = GraphState(turn=TURN, evidence=[evidence], draft=draft)
    checked = WRITER.validate_citations(state)["draft"]
    assert isinstance(checked, Draft)
    assert checked.text == f"{text} [1] The rate fell."  # the unknown [7] goes, ".37" stays


def test_a_quarter_just_past_is_written_without_its_year() -> None:
    """Minutes dated May 2018 write Q4 2017 as "a strong fourth-quarter pace"."""
    pace = "Sales stepped down in the first quarter after a strong fourth-quarter pace."
    question = "According to the May 2018 minutes, what boosted sales in the fourth quarter of 2017?"
    quarter = Name(
        text="Q4 2017",
        variants=quarter_mentions(4, 2017),
        period=True,
        start=dt.date(2017, 10, 1),
        end=dt.date(2017, 12, 31),
    )

    def gate(written: dt.date, text: str = pace) -> str | None:
        evidence = Evidence(
            doc_id="d1", chunk_id="c1", kind="segment", text=text, snippet=text, title="Minutes", date=written,
            collection="default", round_id=1, query="q", mode="hybrid", relevance=0.9,
        )  # fmt: skip
        plan = ExecutionPlan(original_query=question, revised_query=question)
        state = GraphState(turn=TURN, plan=plan, evidence=[evidence], steering=Steering(names=[quarter]))
        return WRITER._gate(0.9, 0.9, [], state, (text, text), {"c1"})

    assert gate(dt.date(2018, 5, 2)) is None  # the latest fourth quarter before May 2018
    reason = gate(dt.date(2019, 5, 1))  # a year on, "the fourth quarter" is 2018's
    assert reason is not None and "not about Q4 2017" in reason
    reason = gate(dt.date(2018, 5, 2), "Sales were weaker than in the fourth quarter of 2016.")  # its own year
    assert reason is not None and "not about Q4 2017" in reason


async def _withheld(question: str, text: str, title: str, mentions: tuple[str, ...] = ()) -> str | None:
    """Why `reflect` withholds an answer that cites `text` (titled `title`) inside one occasion, or None."""
    evidence = Evidence(
        doc_id="d1", chunk_id="c1", kind="segment", text=text, snippet=text, title=title,
        collection="default", round_id=1, query="q", mode="hybrid", relevance=0.9,
    )  # fmt: skip
    citation = Citation(n=1, doc_id="d1", chunk_id="c1", title=title, snippet=text, relevance=0.9)
    state = GraphState(
        turn=TURN,
        plan=ExecutionPlan(original_query=question, revised_query=question),
        evidence=[evidence],
        draft=Draft(text=f"{text} [1]", citations=[citation]),
        steering=Steering(mentions=list(mentions)),
        occasion=True,
    )
    reflection = (await WRITER.reflect(state))["reflection"]
    assert isinstance(reflection, Reflection)
    return reflection.unsupported


async def test_a_word_the_facets_resolved_need_not_be_written_by_the_passage() -> None:
    """ "commerce" chose the Commerce plan (titled "— DOC"): its passages need not write the word."""
    question = "wob kpi 5.5.5 berth timeliness - which letters stand for which words?"
    text = "KPI 5.5.5 Berth Timeliness Percentage of normal priority Berth Turn Requests (BTR) completed on time"
    reason = await _withheld(question, text, "Strategic Plan — HB")
    assert reason is not None and "too little of the question" in reason
    assert await _withheld(question, text, "Strategic Plan — HB", ("wob",)) is None


async def test_a_premise_in_the_person_s_own_words_need_not_be_written_by_the_passage() -> None:
    """ "sept 2013 - the harbour board surprised everyone by not raising fees. who dissented and why?":
    the passage that answers need not write the premise's words, only the question proper's."""
    text = "Ms. Grey dissented because she saw the fee freeze as a risk to the dredging budget."
    premised = (
        "sept 2013 - the harbour surprised everyone by not raising tolls. who dissented and why, per the minutes?"
    )
    assert await _withheld(premised, text, "Minutes of the board") is None
    # the same words asked without a premise are judged as a whole
    whole = "did the harbour surprise everyone by not raising tolls, and who dissented in the minutes?"
    reason = await _withheld(whole, text, "Minutes of the board")
    assert reason is not None and "too little of the question" in reason
    # a premise that names someone points at the passage that writes the name
    named = "june minutes: traders read remarks by harbour master Okafor as hinting at higher tolls. which event did she make them at?"
    header = "The meeting of the harbour board was held on June 17, an event open to the public, to make plans."
    reason = await _withheld(named, header, "Minutes of the board")
    assert reason is not None and "too little of the question" in reason
    okafor = (
        "Harbour master Okafor made the remarks at the spring pilots' dinner, an event in Leith, to make tolls clear."
    )
    assert await _withheld(named, okafor, "Minutes of the board") is None
    # a sentence's first word names nothing: "According to …" is capitalised because it opens one
    sourced = (
        "Harbour tolls fell sharply in May. According to the minutes of the June round, what besides higher "
        "interest rates was weighing on them?"
    )
    weighing = "Tolls declined, reflecting not only higher interest rates but also concerns about dredging delays."
    assert await _withheld(sourced, weighing, "Minutes of the board") is None
