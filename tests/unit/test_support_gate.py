"""The support gate inside one occasion's documents: a cosine does not judge there, a model's grade
and the question's words do."""

from __future__ import annotations

import datetime as dt

from core.calibration import Calibration
from core.contracts import ExecutionPlan, RouteDecision, RouteName, Turn
from core.llm.gateway import LlmGateway
from core.orchestrator.answer import AnswerWriter, writes
from core.orchestrator.asked_names import Name
from core.orchestrator.state import GraphState
from tests.fakes import HashingEmbedder

WRITER = AnswerWriter(embedder=HashingEmbedder(), calibration=Calibration(model="test"), llm=LlmGateway())
TURN = Turn(
    platform="cli",
    tenant="t",
    channel_key="c",
    thread="th",
    message_key="m1",
    user="u",
    text="liftoff in dec 2015 - what range did they move the FFR to",
    received_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
)
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
    assert not writes("Individuals with disabilities were educated.", name("IDEA"))


def _asked(question: str, cited: str, *, route: RouteName = "hybrid", answer: str | None = None) -> str | None:
    plan = ExecutionPlan(original_query=question, revised_query=question)
    state = GraphState(turn=TURN, plan=plan, route=RouteDecision(route=route, reason="test", intent="numeric_lookup"))
    return WRITER._gate(0.9, 0.9, [], state, (cited if answer is None else answer, cited), {"c1"})


def test_a_how_many_question_needs_a_count_of_what_it_counts() -> None:
    question = "How many inspectors does the harbour authority employ?"
    about = "The harbour authority trains its inspectors every spring. It opened 3 new offices in 2024."
    reason = _asked(question, about)
    assert reason is not None and "count of inspectors" in reason
    assert _asked(question, "The harbour authority employs forty-two inspectors.") is None
    assert _asked("What do the inspectors check?", about) is None  # not a count question
    assert _asked("How many inspector receipts are there?", "Number of matching rows: 7", route="structured") is None


def test_a_count_of_another_noun_answers_when_the_sentence_asks_the_same() -> None:
    # "subjects" for "patients": the sentence writes what the question asks, "enroll", with a count
    enrolled = "The study will enroll a total of 420 subjects at 60 sites."
    assert _asked("How many patients will the Zentavir trial enroll?", enrolled) is None
    # the question's names are no such word: every passage of the document carries them
    about = "Every day, the operators and employees of DHS perform difficult work. DHS combined 22 agencies."
    assert _asked("How many employees does DHS have?", about) is not None
    assert _asked("How many employees does DHS have, according to its plan?", about) is not None


def test_a_what_share_question_needs_a_share_in_the_answer() -> None:
    question = "What share of harbour inspections found a violation in 2024?"
    about = "Harbour inspections found violations at 12 berths. Performance Measure 2.2.1 Violations Target Actual"
    reason = _asked(question, about)
    assert reason is not None and "percentage or share" in reason
    for stated in ("Inspections found a violation 18.5% of the time.", "Seven of the 40 inspections found one."):
        assert _asked(question, stated) is None
    assert _asked("Roughly what percent were found in violation?", "About one-third were found in violation.") is None
    # the answer shown is what must state it: a share elsewhere in the cited passage is no answer
    cited = "Inspections found violations at 12 berths. Staff turnover was 9 percent."
    assert _asked(question, cited, answer="Inspections found violations at 12 berths.") is not None
    assert _asked("What was the closing share price?", about) is None  # a price, not a share of something
