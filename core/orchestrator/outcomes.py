"""The outcome table (SPEC section 3): what a turn ends as, decided by the first row whose facts hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.calibration import band_for, reason_for_band
from core.contracts import BranchCode, EvidenceLevel, FinalReason, ReplyKind, Terminal
from core.errors import SearchUnavailableError
from core.orchestrator import replies
from core.orchestrator.answer import CITATION_MARK
from core.orchestrator.compose import overflow_question
from core.orchestrator.evidence import after_newest, before_oldest
from core.orchestrator.state import Draft, GraphState
from core.orchestrator.tables import OVERFLOW_CLARIFY_ROWS


@dataclass(frozen=True)
class Outcome:
    """One row of the outcome table, filled in."""

    branch: BranchCode
    action: str
    kind: ReplyKind
    terminal: Terminal
    final_reason: FinalReason
    answer: str
    reason: str
    suggestion: str | None = None
    row: str = ""  # the table row's name


@dataclass(frozen=True)
class Facts:
    """All the outcome table reads of a turn: what intake read, what retrieval found and what the
    judge made of it. Nothing else decides whether the bot answers."""

    failed: str | None = None  # the stage whose error ended the turn
    search_down: bool = False  # that error was the search backend being unavailable
    guardrail: str | None = None  # why a guardrail blocked the question
    incoherent: str | None = None  # why intake found no question (None: there is one)
    ambiguity: str | None = None  # the question intake must ask before anything is searched
    direct: bool = False  # a command or a greeting, answered without searching
    mismatch_hits: int = 0  # relevant matches only in collections this channel cannot read
    candidates: int = 0  # evidence left after recovery
    not_covered: str | None = None  # a name no document writes, or a period the named documents lack
    after_newest: bool = False  # the dates asked begin after the newest document
    before_oldest: bool = False  # the occasion asked ends before the oldest document
    evidence_level: EvidenceLevel = "insufficient"
    cited: bool = False  # a drafted answer with at least one valid citation
    withheld: str | None = None  # why the support gate withholds the drafted answer
    table_rows: int = 0  # matching rows of a table answer that offers narrowing choices
    rerank_bypassed: bool = False


Say = Callable[[GraphState], tuple[str, str, str | None]]  # (reply text, reason, suggestion)


@dataclass(frozen=True)
class Row:
    """One row of the outcome table: when it applies, what the turn ends as, and what it says."""

    name: str
    when: Callable[[Facts], bool]
    branch: BranchCode
    action: str
    kind: ReplyKind
    terminal: Terminal
    final_reason: FinalReason | None  # None: from the answer's confidence band
    say: Say


def facts(state: GraphState) -> Facts:
    """Read the table's inputs off the graph state."""
    intake, draft, reflection = state.intake, state.draft, state.reflection
    failed = state.errors[-1].split(":", 1)[0] if state.errors else None
    return Facts(
        failed=failed,
        search_down=any(f": {SearchUnavailableError.__name__}:" in error for error in state.errors),
        guardrail=state.guardrail[0] if state.guardrail else None,
        incoherent=(
            "intake did not complete"
            if intake is None
            else (intake.coherence_reason or "incoherent")
            if intake.coherence == "incoherent"
            else None
        ),
        ambiguity=intake.blocking_ambiguity if intake else None,
        direct=state.route is not None and state.route.route == "direct",
        mismatch_hits=state.mismatch_hits,
        candidates=len(state.candidates),
        not_covered=state.steering.missing,
        after_newest=state.newest is not None and state.plan is not None and after_newest(state),
        before_oldest=before_oldest(state),
        evidence_level=state.evidence_level,
        cited=draft is not None and bool(draft.citations),
        withheld=reflection.unsupported if reflection else None,
        table_rows=state.table.total if state.choices is not None and state.table is not None else 0,
        rerank_bypassed=state.rerank_bypassed,
    )


def _queries(state: GraphState) -> list[str]:
    """What was searched, in words: a structured round's query is the question it was read from (its
    JSON filter stays in the retrieval report)."""
    asked = state.plan.revised_query if state.plan is not None else ""
    return [asked if r.tool.startswith("annotations") and asked else r.query for r in state.rounds]


def _failed(state: GraphState) -> tuple[str, str, str | None]:
    text = replies.SEARCH_UNAVAILABLE if facts(state).search_down else replies.INTERNAL_ERROR
    return text.format(reference=state.turn.message_key), f"error inside a stage: {facts(state).failed}", None


def _guarded(state: GraphState) -> tuple[str, str, str | None]:
    assert state.guardrail is not None
    reason, safe_reply = state.guardrail
    return safe_reply, reason, None


def _incoherent(state: GraphState) -> tuple[str, str, str | None]:
    return replies.INCOHERENT, facts(state).incoherent or "incoherent", None


def _ambiguous(state: GraphState) -> tuple[str, str, str | None]:
    assert state.intake is not None
    assert state.intake.blocking_ambiguity
    return state.intake.blocking_ambiguity, "blocking ambiguity at intake", None


def _direct(state: GraphState) -> tuple[str, str, str | None]:
    intake, route = state.intake, state.route
    assert intake is not None
    assert route is not None
    if intake.intent != "chit_chat":
        text = replies.COMMAND_UNAVAILABLE.format(command=intake.normalized_query.lower().rstrip(".!"))
    elif intake.normalized_query.lower().startswith("help"):
        text = replies.HELP
    else:
        text = replies.GREETING
    return text, route.reason, None


def _mismatch(state: GraphState) -> tuple[str, str, str | None]:
    return (
        replies.CHANNEL_MISMATCH,
        f"{state.mismatch_hits} relevant matches outside this channel's collections",
        "Ask in a channel that can read those documents, or ask an admin to map this channel.",
    )


def _not_covered(state: GraphState) -> tuple[str, str, str | None]:
    missing = state.steering.missing or ""
    return replies.not_covered(missing), missing, "Ask about a name or a period the documents cover."


def _after_newest(state: GraphState) -> tuple[str, str, str | None]:
    assert state.newest is not None
    assert state.plan is not None
    return (
        replies.after_newest(state.newest, state.plan.date_start, state.plan.date_end),
        f"the dates asked begin after the newest document ({state.newest.isoformat()})",
        f"Ask about dates up to {state.newest.isoformat()}.",
    )


def _before_oldest(state: GraphState) -> tuple[str, str, str | None]:
    assert state.oldest is not None
    assert state.plan is not None
    return (
        replies.before_oldest(state.oldest, state.plan.date_start, state.plan.date_end),
        f"the occasion asked ends before the oldest document ({state.oldest.isoformat()})",
        f"Ask about dates from {state.oldest.isoformat()} on.",
    )


def _nothing(state: GraphState) -> tuple[str, str, str | None]:
    return replies.empty_set(_queries(state)), "no candidates after recovery", "Try other words or a wider date range."


_NARROW = "Name a document, product or date range to narrow the search."


def _weak(state: GraphState) -> tuple[str, str, str | None]:
    why = f"evidence {state.evidence_level} after {len(state.rounds)} round(s)"
    if state.draft is not None and not state.draft.citations:
        why = "no valid citation left in the answer"
    return _uncertainty(state, _queries(state)), why, _NARROW


def _withheld(state: GraphState) -> tuple[str, str, str | None]:
    return _uncertainty(state, _queries(state)), f"support gate: {facts(state).withheld}", _NARROW


def _overflow(state: GraphState) -> tuple[str, str, str | None]:
    assert state.choices is not None
    assert state.table is not None
    return (
        overflow_question(state),
        f"{state.table.total} matching rows > {OVERFLOW_CLARIFY_ROWS}; narrow by {state.choices[0]}",
        f"only {state.choices[1][0][0]}",
    )


def _answered(state: GraphState) -> tuple[str, str, str | None]:
    draft, reflection = state.draft, state.reflection
    assert draft is not None
    assert reflection is not None
    bypass = "; the configured reranker was unavailable and skipped" if state.rerank_bypassed else ""
    why = f"answered with {len(draft.citations)} citation(s), confidence {reflection.confidence:.2f}{bypass}"
    return draft.text, why, None


# The outcome table (SPEC section 3): the first row whose condition holds decides how the turn ends.
# Read top to bottom: failures and refusals first, then "nothing to answer from", then "evidence too
# weak to answer", then the answer.
ROWS: tuple[Row, ...] = (
    Row("a stage failed", lambda f: f.failed is not None and f.guardrail is None,
        "LOW_CONFIDENCE", "escalate", "uncertainty", "fail", "confidence_too_low_clarify", _failed),
    Row("a guardrail blocked the question", lambda f: f.guardrail is not None,
        "GUARDRAIL_BLOCKED", "escalate", "refusal", "fail", "guardrail_blocked", _guarded),
    Row("no question to answer", lambda f: f.incoherent is not None,
        "INCOHERENT", "clarify", "refusal", "fail", "incoherent", _incoherent),
    Row("ambiguous before searching", lambda f: bool(f.ambiguity),
        "NEEDS_CLARIFICATION", "clarify", "clarification", "success", "needs_clarification", _ambiguous),
    Row("a command or a greeting", lambda f: f.direct,
        "SUCCESS", "proceed", "info", "success", "command", _direct),
    Row("only other channels' documents match", lambda f: f.mismatch_hits > 0,
        "CHANNEL_MISMATCH", "escalate", "uncertainty", "success", "channel_mismatch", _mismatch),
    Row("a name or period asked is not covered", lambda f: f.candidates == 0 and f.not_covered is not None,
        "EMPTY_SET", "fallback", "uncertainty", "success", "empty_set", _not_covered),
    Row("the dates begin after the newest document", lambda f: f.candidates == 0 and f.after_newest,
        "EMPTY_SET", "fallback", "uncertainty", "success", "empty_set", _after_newest),
    Row("the occasion ends before the oldest document", lambda f: f.candidates == 0 and f.before_oldest,
        "EMPTY_SET", "fallback", "uncertainty", "success", "empty_set", _before_oldest),
    Row("nothing found", lambda f: f.candidates == 0,
        "EMPTY_SET", "fallback", "uncertainty", "success", "empty_set", _nothing),
    Row("evidence too weak or nothing cited", lambda f: f.evidence_level in ("low", "insufficient") or not f.cited,
        "LOW_CONFIDENCE", "clarify", "uncertainty", "success", "confidence_too_low_clarify", _weak),
    Row("the sources do not support the answer", lambda f: f.withheld is not None,
        "LOW_CONFIDENCE", "clarify", "uncertainty", "success", "confidence_too_low_clarify", _withheld),
    Row("too many rows: ask how to narrow", lambda f: f.table_rows > OVERFLOW_CLARIFY_ROWS,
        "SUCCESS", "clarify", "clarification", "success", "overflow_clarify", _overflow),
    Row("answered, reranker unavailable", lambda f: f.rerank_bypassed,
        "RERANK_BYPASSED", "proceed", "answer", "success", None, _answered),
    Row("answered", lambda f: True,
        "SUCCESS", "proceed", "answer", "success", None, _answered),
)  # fmt: skip


def row_for(f: Facts) -> Row:
    """The first row of the outcome table whose condition holds (the last row always does)."""
    return next(row for row in ROWS if row.when(f))


def decide(state: GraphState) -> Outcome:
    """The outcome table's row for this turn, filled in."""
    row = row_for(facts(state))
    answer, reason, suggestion = row.say(state)
    final_reason = row.final_reason
    if final_reason is None:
        assert state.reflection is not None
        final_reason = reason_for_band(band_for(state.reflection.confidence))
    return Outcome(row.branch, row.action, row.kind, row.terminal, final_reason, answer, reason, suggestion, row.name)


def _uncertainty(state: GraphState, queries: list[str]) -> str:
    """The uncertainty reply; an answer drafted and withheld by the support gate (perhaps before a
    recovery round found less) is quoted as the closest passage, with what the sources lack."""
    reflection, draft = state.reflection, state.draft
    withheld = reflection if reflection is not None and reflection.unsupported else None
    closest = _closest(draft) if withheld is not None and draft is not None else None
    missing = withheld.coverage.missing if withheld is not None else []
    return replies.uncertainty(queries, state.candidates, state.rounds, closest=closest, missing=missing)


def _closest(draft: Draft) -> tuple[str, str] | None:
    """The withheld answer's first cited passage and its source, shown in the uncertainty reply."""
    marked = CITATION_MARK.search(draft.text)
    if marked is None:
        return None
    cited = next((c for c in draft.citations if c.n == int(marked.group(1))), None)
    passage = draft.text[: marked.start()].strip()
    if cited is None or not passage or "\n" in passage:
        return None  # a table or a list is no passage to quote
    return passage, cited.title + (f", §{cited.section}" if cited.section else "")
