"""The kind of answer a question asks for, sentences that hold one, and the extractive choice."""

from __future__ import annotations

import pytest

from core.calibration import Calibration
from core.contracts import Evidence
from core.orchestrator import extractive
from core.orchestrator.support import content_terms, required_terms
from core.text import split_sentences, words
from core.understanding import answer_kind, holds, measure_words, question_parts


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Who voted against the January 21, 2008 cut?", "person"),
        ("Which member dissented at the August 1996 meeting?", "person"),
        ("Which Reserve Bank president dissented in June 2008?", "person"),
        ("Whom do I ask about expenses?", "person"),
        ("What was the discount rate cut to in Dec 2008?", "quantity"),
        ("How much does the K-450 weigh?", "quantity"),
        ("To what level did the Board cut the discount rate?", "quantity"),
        ("What target range did the FOMC set?", "quantity"),
        ("When did the primary credit rate increase take effect?", "date"),
        ("On what date is the next meeting?", "date"),
        ("Why did Hoenig vote against the statement?", "reason"),
        ("What was Hoenig's reasoning?", "reason"),  # the noun asks for the reason
        ("ok and what was Hoenig's reasoning?", "reason"),  # an acknowledgement asks nothing
        ("What's the agency's target for the fatality rate?", "quantity"),  # "what's" is "what is"
        ("what're the new target ranges?", "quantity"),
        ("What rationale did the Board give?", "reason"),
        ("what reason do the minutes give?", "reason"),
        # a cause asked by its noun, its verb, or by what something is owed to
        ("industrial production dropped in october - what was the main reason?", "reason"),
        ("what caused the drop in housing starts?", "reason"),
        ("what was behind the jump in imports?", "reason"),
        ("net exports were strong in Q4. what was that partly put down to?", "reason"),
        ("What did the Committee attribute the decline to?", "reason"),
        ("What was the discount rate raised to?", "quantity"),  # a level, not a cause
        # Statistics are quantities: an average, a share, a score.
        ("What was the actual average?", "quantity"),
        ("What share of CHCOs said they had the guidance they needed?", "quantity"),
        # A message asking two things asks for its first question's kind.
        ("Which OPM Director signed the FY 2022 report, and on what date?", "person"),
        # a "who" after another question word is a relative pronoun; one that opens a sentence asks
        ("What will it do for readers who cannot travel to a reading room?", None),
        ("The plan says what it will do. Who signed it?", "person"),
        ("Name the governors who dissented.", "person"),
        ("Explain the travel policy", None),
        ("List all receipts for tires", None),
    ],
)
def test_the_question_names_the_kind_of_answer(question: str, kind: str | None) -> None:
    assert answer_kind(question) == kind


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "March 2008: how far did the FOMC cut, and who voted against?",
            ["March 2008: how far did the FOMC cut", "who voted against?"],
        ),
        ("Who signed the FY 2016 report, and when?", ["Who signed the FY 2016 report", "when?"]),
        ("Why did they ease in 1998, and to what level?", ["Why did they ease in 1998", "to what level?"]),
        (
            "What was the FY 2022 score and did it meet the target?",
            ["What was the FY 2022 score", "did it meet the target?"],
        ),
        ("Sept 2015 - anyone dissent? what did they want?", ["Sept 2015 - anyone dissent?", "what did they want?"]),
        # Nouns joined by "and" are one question; so is a single question.
        (
            "nov 2001 - fed funds target and discount rate after the cut?",
            ["nov 2001 - fed funds target and discount rate after the cut?"],
        ),
        ("What are the hotel and meal limits?", ["What are the hotel and meal limits?"]),
        ("Who approved it?", ["Who approved it?"]),
    ],
)
def test_a_message_asking_two_things_has_two_parts(question: str, parts: list[str]) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    ("sentence", "kind", "expected"),
    [
        ("Voting against was William Poole, who did not believe that action was justified.", "person", True),
        ("Voting against this action: Mr. Lacker.", "person", True),
        ("Voting against the action were Governor Kohn and President Fisher.", "person", True),
        ("The Committee decided to keep the target range unchanged.", "person", False),
        ("The Board approved a decrease in the discount rate to 4 percent.", "quantity", True),
        ("Purchases will run at $40 billion per month.", "quantity", True),
        ("The meeting was held in 2008.", "quantity", False),
        ("The increase takes effect on December 17, 2015.", "date", True),
        ("The increase takes effect soon.", "date", False),
        ("Mr. Hoenig dissented because he was concerned about financial imbalances.", "reason", True),
        ("In part, this development could be attributed to lower petroleum imports.", "reason", True),
        ("Much of the slackening was caused by work stoppages.", "reason", True),
        ("Industrial production declined appreciably in October.", "reason", False),
        ("Anything at all.", None, False),
    ],
)
def test_a_sentence_holds_an_answer_of_the_kind(sentence: str, kind: str | None, expected: bool) -> None:
    assert holds(sentence, kind) is expected  # type: ignore[arg-type]


def test_names_with_initials_and_titles_stay_in_one_sentence() -> None:
    text = (
        "Voting for the action were: Ben S. Bernanke, Chairman; and Kevin M. Warsh. "
        "Voting against this action: Mr. Lacker. Absent and not voting was Frederic S. Mishkin."
    )
    assert split_sentences(text) == [
        "Voting for the action were: Ben S. Bernanke, Chairman; and Kevin M. Warsh.",
        "Voting against this action: Mr. Lacker.",
        "Absent and not voting was Frederic S. Mishkin.",
    ]


def _evidence(n: int, title: str) -> Evidence:
    return Evidence(
        doc_id=f"d{n}",
        chunk_id=f"c{n}",
        kind="segment",
        text="",
        snippet="",
        title=title,
        collection="default",
        round_id=1,
        query="q",
        mode="hybrid",
        relevance=0.5,
    )


def test_a_sentence_two_sources_say_is_written_once_and_cites_both() -> None:
    vote = "Voting for the action were Anna K. Berg, Tomas J. Lind and Mia R. Holm."
    ranked = [
        (0.9, (0, vote)),
        (0.88, (1, vote.replace("Holm.", "Holm, Chair."))),
        (0.8, (1, "Rates rose to 2 percent.")),
    ]
    meaning = {c: s for s, c in ranked}
    chosen, also = extractive.choose(ranked, meaning, Calibration(model="fake"))
    assert chosen == [(0, vote), (1, "Rates rose to 2 percent.")]
    draft = extractive.compose(chosen, [_evidence(0, "March"), _evidence(1, "May")], [], also)
    assert draft.text == f"{vote} [1][2] Rates rose to 2 percent. [2]"
    assert [c.n for c in draft.citations] == [1, 2]


def test_the_same_sentence_with_other_figures_is_not_a_repeat() -> None:
    old, new = "The mileage rate is EUR 0.30 per km.", "The mileage rate is EUR 0.34 per km."
    assert not extractive.repeats(old, new)
    assert extractive.repeats(new, "The mileage rate is EUR 0.34 per km!")


def test_the_measure_a_how_question_asks_for_is_not_a_word_the_source_must_repeat() -> None:
    assert content_terms("How far was the discount rate lowered?") == ["discount", "rate", "lowered"]
    assert content_terms("How long is the warranty?") == ["warranty"]
    assert "long-term" in content_terms("How is long-term debt reported?")  # not a "how long"


def test_a_number_written_with_marks_is_not_a_word_the_source_must_repeat() -> None:
    terms = content_terms("Per the September 17-18, 2013 minutes, why did George dissent at a meeting of 2.5 days?")
    assert not {"17-18", "2013", "2.5"} & set(terms)
    assert "george" in terms and "n5921d" in content_terms("How badly was N5921D damaged?")


def test_indefinite_pronouns_and_the_stop_verbs_inflected_are_no_words_the_source_must_repeat() -> None:
    assert content_terms("Did anyone vote against it?") == ["vote", "against"]
    assert content_terms("who wanted a cut and got outvoted?") == ["cut", "outvoted"]
    assert content_terms("Someone found the key; everybody knew") == ["key"]
    # Modal verbs are function words, like "would" and "could": "might" is no topic a source repeats.
    assert content_terms("What might explain the rise, and what must be contained?") == ["rise", "contained"]


def test_the_occasion_a_date_names_is_not_a_word_the_source_must_repeat() -> None:
    statement = "The Committee decided to raise the target range to 5-1/4 to 5-1/2 percent."
    asked = "What's the target range after the July 2023 meeting?"
    assert required_terms(asked, statement) == ["target", "range"]
    # It counts when the text writes it: "at this meeting".
    assert required_terms(asked, statement + " Voting against at this meeting was no one.") == [
        "target",
        "range",
        "meeting",
    ]
    assert required_terms("Who signed the message in Orchard's Q3 2022 filing?", "") == ["signed", "message", "orchard"]
    assert "plan" not in required_terms("How many staff according to its FY 2022-2026 plan?", "")
    # A rewording without prepositions is read by the question as written.
    assert required_terms("target range july 2023 meeting", statement, asked) == ["target", "range"]
    # Without a preposition the dated noun is what is asked for, not the occasion.
    assert required_terms("What was the Q3 2022 margin?", "") == ["margin"]
    assert required_terms("dec 2013 taper: new monthly MBS pace?", "") == ["taper", "monthly", "mbs", "pace"]


def test_a_redaction_mark_is_no_word_of_the_question() -> None:
    assert content_terms("My card [REDACTED CARD] was declined: what is the hotel limit?") == [
        "card",
        "declined",
        "hotel",
        "limit",
    ]


def test_a_name_that_leads_a_field_or_signature_is_a_person_unless_the_text_writes_its_words() -> None:
    # Words the surrounding passages write in lower case: "name" and "programs" are words there.
    common = frozenset(words("the plan names programs that serve research and a name for each"))
    for line in ("Gina Raimondo : U.S. Secretary of Commerce", "Kiran Ahuja, Director"):
        assert holds(line, "person", common)
    for line in ("Given Name: Owen", "Contributing Programs: Research Services"):
        assert not holds(line, "person", common)


def test_a_leading_clause_that_sets_the_scene_asks_for_nothing() -> None:
    assert answer_kind("When they cut to 1 percent in June 2003, did anyone vote against it?") is None
    assert answer_kind("When the FOMC tapered in December 2013, what did MBS purchases drop to?") == "quantity"
    assert answer_kind("After the June 2001 cut, how much had the rate come down?") == "quantity"
    assert answer_kind("When the Committee met in March, when did it schedule the next meeting?") == "date"
    assert answer_kind("When was the bureau established?") == "date"  # no clause: the question itself
    assert answer_kind("When the plan was set, who signed it?") == "person"
    # after the source's heading chat sets off with a dash or colon
    assert answer_kind("jul 1994 minutes - when a meeting ends with no change, what did they put out?") is None
    assert answer_kind("opm fy14 apr: when the conference was cancelled, how many webcasts ran?") == "quantity"
    assert answer_kind("jul 1994 minutes - when did the meeting end?") == "date"


def test_what_was_behind_asks_a_reason_with_an_adverb_between() -> None:
    assert answer_kind("what was partly behind the softening in consumer spending?") == "reason"
    assert answer_kind("What was largely behind the rise?") == "reason"


def test_a_person_after_what_and_a_verb_is_who_answers_not_what_is_asked() -> None:
    assert answer_kind("what did most members agree the fed should put out?") is None
    assert answer_kind("Which members dissented?") == "person"
    assert answer_kind("what two members voted against?") == "person"


def test_a_when_clause_inside_the_question_asks_for_nothing() -> None:
    # Made-up questions; the kind is the question word's, not the clause's.
    assert answer_kind("Who chaired the board when the merger closed?") == "person"
    assert answer_kind("How many stores did it run when the founder retired?") == "quantity"
    assert answer_kind("What rate did they set when prices rose in May?") == "quantity"
    # A "when" that asks stays a date question.
    assert answer_kind("What was the new fee, effective when?") == "date"
    assert answer_kind("What did the notice say about when the fee takes effect?") == "date"


def test_a_role_fact_leads_the_answer_to_a_who_question() -> None:
    message = "Since I became Acting Director of OPM in July 2015, it has been my privilege to serve."
    signature = "Beth F. Cobert: Acting Director, signed February 9, 2016"
    evidence = [_evidence(0, "Report"), _evidence(1, "Report").model_copy(update={"kind": "fact"})]
    ranked = [(0.8, (0, message)), (0.5, (1, signature))]
    chosen = [(0, message)]
    who = "Who signed the director's message in the FY 2015 report?"
    assert extractive.role_first(who, ranked, chosen, evidence) == [(1, signature), (0, message)]
    # Not for a question asking no person, and not for a fact whose label names no one.
    assert extractive.role_first("When was the message signed?", ranked, chosen, evidence) == chosen
    unnamed = [(0.8, (0, message)), (0.5, (1, "Stakeholder(s): Office of the Secretary"))]
    assert extractive.role_first(who, unnamed, chosen, evidence) == chosen


def test_a_noun_that_asks_for_a_reason_is_not_a_word_the_source_must_repeat() -> None:
    assert measure_words("What was Hoenig's reasoning, per the minutes?") == {"reasoning"}
    assert measure_words("what was that partly put down to?") == {"put", "down"}
    assert "decline" not in measure_words("What did the Committee attribute the decline to?")
    assert "reasoning" not in content_terms("What was Hoenig's reasoning, per the minutes?")
    assert "reasoning" in content_terms("Summarise the staff's reasoning on bank capital")  # a subject here


def test_a_part_whose_best_sentence_is_an_earlier_part_s_reads_on_in_the_document() -> None:
    lead = "In FY 2015 OPM ran its first Rapid Improvement Exercise, an intensive two-day program."
    after = "The initial exercise focused on energy savings."
    other = "In May OPM held its first virtual training conference for staff."
    found = [(0, lead), (0, after), (1, other)]
    contextual = [f"Report: {s}" for _, s in found]
    parts = ["OPM ran its first Rapid Improvement Exercise. How long was the program", "what did it focus on?"]
    cosines, part_cosines = [0.9, 0.3, 0.6], [[0.9, 0.3, 0.6], [0.7, 0.2, 0.4]]
    following = {found[0]: found[1], found[1]: found[2]}
    picked = extractive.by_part(parts, found, contextual, cosines, part_cosines, [found[0]], following)
    assert picked[:2] == [found[0], found[1]]
    # Without the document's order the second part has no sentence of its own.
    assert extractive.by_part(parts, found, contextual, cosines, part_cosines, [found[0]]) == [found[0]]


def test_the_first_part_s_sentence_reads_on_beside_the_whole_question_s_choice() -> None:
    conference = "OPM held its annual Acquisition Planning Conference on procurement packages."
    workshops = "For the first time, the agency held two pre-conference workshops before it."
    modules = "OPM continued to deploy two facility management system modules."
    tickets = "The system will let customers request services by a work ticket."
    staff = "OPM refreshed its staff on the preaward acquisition process."
    found = [(0, conference), (0, workshops), (0, modules), (0, tickets), (1, staff)]
    contextual = [f"Report: {s}" for _, s in found]
    parts = ["What was new about that year's Acquisition Planning Conference", "what modules was OPM deploying?"]
    cosines = [0.9, 0.3, 0.6, 0.4, 0.7]
    part_cosines = [[0.9, 0.3, 0.4, 0.2, 0.7], [0.3, 0.2, 0.9, 0.5, 0.3]]
    following = {found[0]: found[1], found[1]: found[2], found[2]: found[3]}
    chosen = [found[0], found[4], found[2], found[3]]
    picked = extractive.by_part(parts, found, contextual, cosines, part_cosines, chosen, following)
    # The first part's sentence reads on; what the whole question chose keeps its place beside it.
    assert picked == [found[0], found[1], found[2], found[4], found[3]]
    # Without the document's order, the parts' sentences and the whole question's choice, as before.
    assert extractive.by_part(parts, found, contextual, cosines, part_cosines, chosen) == [
        found[0],
        found[2],
        found[4],
        found[3],
    ]


def test_a_passage_s_last_sentence_is_followed_by_the_next_segment_s_first() -> None:
    from core.orchestrator.discourse import successors

    def segment(at: int) -> Evidence:
        return _evidence(0, "Report").model_copy(update={"doc_id": "d", "chunk_id": f"d:{at}", "position": at})

    evidence = [segment(7), segment(3), segment(2)]  # in the order retrieval ranked them
    found = [(0, "Seven a."), (1, "Three a."), (1, "Three b."), (2, "Two a."), (2, "Two b.")]
    assert successors(found, evidence) == {
        (1, "Three a."): (1, "Three b."),
        (2, "Two a."): (2, "Two b."),
        (2, "Two b."): (1, "Three a."),  # segment 2 goes on in segment 3
    }
