"""`respond`'s outcome table, row by row: each row is reached by the facts it names and by nothing
an earlier row claims, and ends the turn as the table says."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from core.contracts import Citation, Evidence, ExecutionPlan, IntakeResult, RouteDecision, Turn
from core.orchestrator.evidence import after_newest, before_oldest
from core.orchestrator.outcomes import ROWS, Facts, decide, facts, row_for
from core.orchestrator.state import Draft, GraphState, Reflection
from core.orchestrator.steering import Steering
from core.orchestrator.tables import OVERFLOW_CLARIFY_ROWS

# The smallest facts that reach each row; a row's facts are those of a turn that searched, found
# evidence and drafted a cited answer, changed in one field.
ANSWERABLE = Facts(candidates=3, evidence_level="high", cited=True)
REACHES: dict[str, Facts] = {
    "a stage failed": Facts(failed="retrieve"),
    "a guardrail blocked the question": Facts(guardrail="prompt injection", failed="intake"),
    "no question to answer": Facts(incoherent="no words"),
    "ambiguous before searching": Facts(ambiguity="Which product do you mean?"),
    "a command or a greeting": Facts(direct=True),
    "only other channels' documents match": Facts(mismatch_hits=4),
    "a name or period asked is not covered": Facts(not_covered="they cover FY 2019, FY 2020"),
    "the dates begin after the newest document": Facts(after_newest=True),
    "the occasion ends before the oldest document": Facts(before_oldest=True),
    "nothing found": Facts(),
    "evidence too weak or nothing cited": dataclasses.replace(ANSWERABLE, evidence_level="low"),
    "the sources do not support the answer": dataclasses.replace(ANSWERABLE, withheld="names no one"),
    "too many rows: ask how to narrow": dataclasses.replace(ANSWERABLE, table_rows=OVERFLOW_CLARIFY_ROWS + 1),
    "answered, reranker unavailable": dataclasses.replace(ANSWERABLE, rerank_bypassed=True),
    "answered": ANSWERABLE,
}


def test_every_row_is_tested() -> None:
    assert [row.name for row in ROWS] == list(REACHES)


@pytest.mark.parametrize("name", list(REACHES))
def test_row_is_reached_by_its_facts(name: str) -> None:
    assert row_for(REACHES[name]).name == name


@pytest.mark.parametrize(
    ("name", "changed", "row"),
    [
        # What one row needs is not enough once an earlier row holds too.
        ("a stage failed", {"guardrail": "blocked"}, "a guardrail blocked the question"),
        ("a name or period asked is not covered", {"candidates": 2}, "evidence too weak or nothing cited"),
        ("the dates begin after the newest document", {"candidates": 2}, "evidence too weak or nothing cited"),
        ("the occasion ends before the oldest document", {"candidates": 2}, "evidence too weak or nothing cited"),
        (
            "the occasion ends before the oldest document",
            {"after_newest": True},
            "the dates begin after the newest document",
        ),
        ("evidence too weak or nothing cited", {"evidence_level": "medium"}, "answered"),
        ("answered", {"cited": False}, "evidence too weak or nothing cited"),
        ("answered", {"evidence_level": "insufficient"}, "evidence too weak or nothing cited"),
        ("answered", {"table_rows": OVERFLOW_CLARIFY_ROWS}, "answered"),
        ("the sources do not support the answer", {"evidence_level": "low"}, "evidence too weak or nothing cited"),
        ("only other channels' documents match", {"direct": True}, "a command or a greeting"),
    ],
)
def test_row_order(name: str, changed: dict[str, object], row: str) -> None:
    assert row_for(dataclasses.replace(REACHES[name], **changed)).name == row  # type: ignore[arg-type]


def test_rows_end_the_turn_as_the_table_says() -> None:
    by_name = {row.name: row for row in ROWS}
    assert by_name["a stage failed"].terminal == "fail"
    assert {by_name[n].kind for n in ("nothing found", "evidence too weak or nothing cited")} == {"uncertainty"}
    assert by_name["ambiguous before searching"].kind == "clarification"
    assert [row.name for row in ROWS if row.kind == "answer"] == ["answered, reranker unavailable", "answered"]


def _turn() -> Turn:
    return Turn(
        platform="cli",
        tenant="t",
        channel_key="c",
        thread="th",
        message_key="m1",
        user="u",
        text="How many weeks of leave?",
        received_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )


def _intake(**changes: object) -> IntakeResult:
    question = "How many weeks of leave?"
    fields: dict[str, object] = {"original_query": question, "normalized_query": question, "intent": "numeric_lookup"}
    fields.update(changes)
    return IntakeResult.model_validate(fields)


def _answered_state(**changes: object) -> GraphState:
    text = "Parents get 16 weeks."
    evidence = Evidence(
        chunk_id="c1",
        doc_id="d1",
        title="Handbook",
        text=text,
        snippet=text,
        collection="default",
        round_id=1,
        query="leave",
        mode="hybrid",
        relevance=0.9,
    )
    citation = Citation(n=1, chunk_id="c1", doc_id="d1", title="Handbook", snippet=text, relevance=0.9)
    state = GraphState(
        turn=_turn(),
        intake=_intake(),
        route=RouteDecision(route="hybrid", reason="default", intent="numeric_lookup"),
        candidates=[evidence],
        evidence=[evidence],
        evidence_level="high",
        draft=Draft(text="Parents get 16 weeks [1].", citations=[citation]),
        reflection=Reflection(confidence=0.9, support_original=0.9, support_revised=0.9),
    )
    return state.model_copy(update=changes)


def test_facts_are_read_off_the_graph_state() -> None:
    state = _answered_state()
    assert facts(state) == Facts(candidates=1, evidence_level="high", cited=True)
    outcome = decide(state)
    assert (outcome.row, outcome.kind, outcome.final_reason) == ("answered", "answer", "confidence_high")
    assert outcome.answer == "Parents get 16 weeks [1]."

    failed = state.model_copy(update={"errors": ["retrieve: SearchUnavailableError: connection refused"]})
    assert facts(failed).failed == "retrieve"
    assert facts(failed).search_down
    assert decide(failed).row == "a stage failed"

    withheld = state.model_copy(
        update={"reflection": Reflection(confidence=0.9, support_original=0.2, support_revised=0.2, unsupported="x")}
    )
    assert decide(withheld).row == "the sources do not support the answer"
    assert decide(withheld).kind == "uncertainty"

    uncited = state.model_copy(update={"draft": Draft(text="Parents get 16 weeks.")})
    assert decide(uncited).reason == "no valid citation left in the answer"

    assert decide(state.model_copy(update={"intake": None})).row == "no question to answer"
    ambiguous = state.model_copy(update={"intake": _intake(blocking_ambiguity="Which plan?")})
    assert decide(ambiguous).answer == "Which plan?"


def test_an_occasion_dated_before_the_oldest_document_is_outside_the_documents() -> None:
    def before(question: str, start: str, end: str, **changes: object) -> bool:
        plan = ExecutionPlan(
            original_query=question,
            revised_query=question,
            date_start=dt.date.fromisoformat(start),
            date_end=dt.date.fromisoformat(end),
        )
        state = _answered_state(plan=plan, oldest=dt.date(1993, 2, 3), **changes)
        return before_oldest(state)

    assert before("Who dissented at the December 1990 FOMC meeting?", "1990-12-01", "1990-12-31")
    # A later document may report an earlier date: only a dated occasion is outside the documents.
    assert not before("How many barges did the program start with in May 1990?", "1990-05-01", "1990-05-31")
    assert not before("Who dissented at the March 1993 meeting?", "1993-03-01", "1993-03-31")
    # A period the documents' own labels resolved ("in the FY 1992 report") is covered, whatever its dates.
    assert not before(
        "What did OPM say in its FY 1992 report?", "1991-10-01", "1992-09-30", steering=Steering(period_resolved=True)
    )


def test_a_year_after_the_newest_document_that_a_plans_span_holds_is_not_after_the_documents() -> None:
    plan = ExecutionPlan(
        original_query="What's the plan's 2026 target?",
        revised_query="What's the plan's 2026 target?",
        date_start=dt.date(2026, 1, 1),
        date_end=dt.date(2026, 12, 31),
    )
    assert after_newest(_answered_state(plan=plan, newest=dt.date(2022, 12, 31)))
    covered = _answered_state(plan=plan, newest=dt.date(2022, 12, 31), steering=Steering(period_covered=True))
    assert not after_newest(covered)
    assert decide(covered).row != "the dates begin after the newest document"
