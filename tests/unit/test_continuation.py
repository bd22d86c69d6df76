"""A passage read on past its segment's end (`core.orchestrator.continuation`)."""

from __future__ import annotations

from core.contracts import Evidence, EvidenceKind
from core.knowledge import Segment
from core.orchestrator.continuation import CONTINUED_SENTENCES, continuations, places_after


def _found(position: int, section: str | None = None, kind: EvidenceKind = "segment") -> Evidence:
    return Evidence(
        doc_id="plan",
        chunk_id=f"plan:{position}",
        kind=kind,
        text="Every settlement will require three kinds of terms:",
        snippet="Every settlement …",
        title="Enforcement plan",
        section=section,
        page=4,
        position=position,
        collection="default",
        round_id=2,
        query="what terms",
        mode="hybrid",
        relevance=0.71,
    )


def _stored(position: int, text: str, section: str | None = None, page: int = 5) -> Segment:
    return Segment(
        chunk_id=f"plan:{position}",
        doc_id="plan",
        collection="default",
        position=position,
        text=text,
        title="Enforcement plan",
        section=section,
        page=page,
    )


def test_the_places_after_found_passages_leave_out_those_found_and_facts() -> None:
    assert places_after([_found(3), _found(4), _found(9), _found(12, kind="fact")]) == [("plan", 5), ("plan", 10)]


def test_a_continuation_is_the_next_segment_s_first_sentences_cited_as_itself() -> None:
    text = "Advanced monitoring. Independent verification. Electronic reporting. The laboratory moved."
    [read] = continuations([_found(3)], [_stored(4, text)])
    assert read.chunk_id == "plan:4" and read.position == 4 and read.page == 5
    assert read.text.split("\n") == ["Advanced monitoring.", "Independent verification."][:CONTINUED_SENTENCES]
    # it is read as part of the passage it continues: that passage's round and relevance
    assert (read.round_id, read.relevance, read.bm25_rank) == (2, 0.71, None)


def test_a_new_section_a_numbered_part_or_a_segment_not_next_is_no_continuation() -> None:
    assert continuations([_found(3, section="Enforcement")], [_stored(4, "Board. Members.", section="Board")]) == []
    assert continuations([_found(3)], [_stored(5, "Advanced monitoring.")]) == []
    for heading in ("Strategy 7.03: Advance claims processing. OPM is responsible.", "TABLE 7.03E Measure."):
        assert continuations([_found(3)], [_stored(4, heading)]) == []
    # a list goes on across the cut: "5. Disability: …" is an item of it, not a part's name
    assert continuations([_found(3)], [_stored(4, "5. Disability: RS conducts the survey.")]) != []
