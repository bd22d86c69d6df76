"""Which sentences of a passage read together (`core.orchestrator.discourse`): a point made over a few
sentences is answered whole."""

from __future__ import annotations

from core.contracts import Evidence
from core.orchestrator.discourse import completed, continued, successors, windowed
from core.orchestrator.extractive import MAX_SENTENCES, candidates


def _passage(text: str, question: str, position: int = 0) -> Evidence:
    return Evidence(
        doc_id="d1",
        chunk_id=f"d1:{position}",
        text=text,
        snippet=text[:40],
        title="Harbour board record",
        position=position,
        collection="default",
        round_id=1,
        query=question,
        mode="hybrid",
        relevance=0.6,
    )


def _sentences(text: str, question: str = "What happened at the harbour board?") -> list[tuple[int, str]]:
    return candidates([_passage(text, question)], question)


def test_a_point_made_over_several_sentences_that_point_back_is_read_whole() -> None:
    found = _sentences(
        "Mr. Alvarez dissented because he preferred to keep berth fees unchanged. In his view, recent "
        "cargo data had raised doubts about the outlook. He preferred to await evidence that the decline "
        "in cargo was temporary. Members then discussed the dredging schedule."
    )
    dissent, view, await_, dredging = found
    assert continued([dissent], found) == [dissent, view, await_]
    assert dredging not in continued([dissent], found)


def test_a_connective_that_details_the_sentence_before_joins_it() -> None:
    found = _sentences(
        "Ms. Okafor dissented because she viewed berth fees as too low. In particular, low fees could "
        "lead to a mispricing of risk. Accordingly, she favoured a review of the fee schedule."
    )
    because, particular, accordingly = found
    assert continued([because], found) == [because, particular, accordingly]
    assert continued([accordingly], found) == [particular, accordingly]


def test_the_sentence_after_one_that_only_echoes_the_question_joins_it() -> None:
    question = "What initial steps did the harbour board take toward scaling back emergency lending?"
    found = _sentences(
        "In contrast, the harbour board took some initial steps toward scaling back emergency lending. "
        "It announced that the one-year berth loan would be its last. Cargo volumes rose in the autumn.",
        question,
    )
    echo, steps, cargo = found
    assert continued([echo], found, question) == [echo, steps]
    # without the question, or when the chosen sentence says more than the question, no neighbour joins
    assert continued([echo], found) == [echo]
    assert continued([cargo], found, question) == [cargo]


def test_a_sentence_between_two_of_the_answer_s_sentences_joins_them() -> None:
    found = _sentences(
        "The board raised berth fees by 2 percent. Shipping lines had asked for a delay until spring. "
        "The board agreed to review the fees in June. Members then discussed the dredging schedule."
    )
    raised, delay, review, dredging = found
    assert continued([raised, review], found) == [raised, delay, review]
    assert continued([raised, dredging], found) == [raised, dredging]


def test_a_sentence_ending_on_a_colon_is_read_with_what_it_announces_in_the_next_segment() -> None:
    question = "What terms will every berth settlement require?"
    evidence = [
        _passage("Fees were raised in June. Every berth settlement will require three kinds of terms:", question),
        _passage("Cargo volumes rose in the autumn after the fee review.", question, position=5),
        _passage("Independent audits, monthly reports and a bond. The dredging schedule was then set.", question, 1),
    ]
    found = candidates(evidence, question)
    fees, announce, cargo, terms, dredging = found
    following = successors(found, evidence)
    assert following[announce] == terms  # the next segment of the document, not the next one found
    assert continued([announce], found, question, following) == [announce, terms]
    assert dredging not in continued([announce], found, question, following)
    # a sentence that announces nothing reads alone
    assert continued([fees], found, question, following) == [fees]
    assert continued([cargo], found, question, following) == [cargo]


def test_a_neighbour_that_writes_a_word_of_the_question_the_answer_lacks_completes_it() -> None:
    question = "What did the harbour board do about berth fees, and what was the data source?"
    text = (
        "Members then discussed the dredging schedule. The board raised berth fees by 2 percent. "
        "Data source: reports from the harbour forum and the pilots' office. Cargo volumes rose in the autumn."
    )
    evidence = [_passage(text, question)]
    found = candidates(evidence, question)
    dredging, raised, source, cargo = found
    following = successors(found, evidence)
    assert completed([raised], found, ["source"], following) == [raised, source]
    assert completed([raised], found, ["dredging", "source"], following) == [dredging, raised, source]
    # nothing the answer lacks, or a word no neighbour writes: the answer stays as it is
    assert completed([raised], found, [], following) == [raised]
    assert completed([raised], found, ["autumn"], following) == [raised]
    # a word is brought once, by the first neighbour that writes it
    assert completed([raised, cargo], found, ["pilots"], following) == [raised, source, cargo]
    # an answer already at its most (MAX_SENTENCES + 2) takes no more
    full = [raised, *((0, f"Filler sentence number {n} of the record.") for n in range(MAX_SENTENCES + 1))]
    assert completed(full, found, ["source"], following) == full


def test_the_sentence_after_the_best_one_reads_with_it_while_the_answer_has_room() -> None:
    question = "What made the harbour board's dredging harder last winter?"
    text = (
        "The board kept the dredging schedule after the November meeting. "
        "Work was slowed by storms in January and by a broken crane at berth four. "
        "Cargo volumes rose in the autumn."
    )
    evidence = [_passage(text, question)]
    found = candidates(evidence, question)
    kept, slowed, cargo = found
    following = successors(found, evidence)
    other = (0, "The harbour forum met twice in the year.")
    assert windowed([kept, other], kept, following) == [kept, slowed, other]
    # already there, or no sentence after the best one: nothing changes
    assert windowed([kept, slowed], kept, following) == [kept, slowed]
    assert windowed([cargo, kept], cargo, following) == [cargo, kept]
    # a full answer makes way for no neighbour
    full = [kept, *((0, f"Filler sentence number {n} of the record.") for n in range(MAX_SENTENCES - 1))]
    assert windowed(full, kept, following) == full
