"""The support gate's count: a "how many X" answer writes a count of X, in the ways English writes
one, and not a figure of something else (`core.orchestrator.measures.gives_count`,
`core.understanding.counting`)."""

from __future__ import annotations

from tests.answer_writer import gate_reason as _asked


def test_a_how_many_question_needs_a_count_of_what_it_counts() -> None:
    question = "How many inspectors does the harbour authority employ?"
    about = "The harbour authority trains its inspectors every spring. It opened 3 new offices in 2024."
    reason = _asked(question, about)
    assert reason is not None and "count of inspectors" in reason
    assert _asked(question, "The harbour authority employs forty-two inspectors.") is None
    assert _asked("What do the inspectors check?", about) is None  # not a count question
    assert _asked("How many inspector receipts are there?", "Number of matching rows: 7", route="structured") is None


def test_the_count_is_read_in_the_answer_not_anywhere_in_its_passages() -> None:
    question = "The minutes talk about the shutdown - how many federal workers were furloughed?"
    cited = "The government shutdown weighed on spending. During the shutdown, 14 agencies closed their offices."
    answer = "The government shutdown weighed on spending."
    # Before: the passage's other sentence, a figure beside "shutdown", was the count.
    reason = _asked(question, cited, answer=answer)
    assert reason is not None and "count of federal workers" in reason
    assert (
        _asked(
            question,
            cited + " About 800,000 federal workers were furloughed.",
            answer=answer + " About 800,000 federal workers were furloughed.",
        )
        is None
    )


def test_a_count_of_another_noun_answers_when_the_sentence_asks_the_same() -> None:
    # "subjects" for "patients": the sentence writes what the question asks, "enroll", with a count
    enrolled = "The study will enroll a total of 420 subjects at 60 sites."
    assert _asked("How many patients will the Zentavir trial enroll?", enrolled) is None
    # the question's names are no such word: every passage of the document carries them
    about = "Every day, the operators and employees of DHS perform difficult work. DHS combined 22 agencies."
    assert _asked("How many employees does DHS have?", about) is not None
    assert _asked("How many employees does DHS have, according to its plan?", about) is not None


def test_a_possessive_name_is_no_word_that_counts_something_else() -> None:
    # "DHS's" is the name "DHS": a count of events that mentions DHS says nothing of its fellows
    events = "In 2017, DHS held two training events, one in Denver with 275 attendees."
    assert _asked("How many fellows went through DHS's leadership program?", events) is not None
    assert _asked("How many fellows went through DHS's leadership program?", "DHS trained 40 fellows.") is None


def test_a_name_written_in_lower_case_is_no_word_that_counts_something_else() -> None:
    question = "opm fy17 apr - how many attendees downloaded the summit app?"
    accounts = "OPM's hashtag reached more than 140,000 Twitter accounts."
    reason = _asked(question, accounts, mentions=("opm",))  # the reading resolved "opm" to a name
    assert reason is not None and "count of attendees" in reason
    assert _asked(question, "OPM counted 2,100 attendees who downloaded it.", mentions=("opm",)) is None


def test_money_and_time_are_counted_only_in_their_units() -> None:
    question = "How many dollars of relief funding did the port get?"
    staff = "The port is using relief funding to support 163 full-time staff."
    reason = _asked(question, staff)
    assert reason is not None and "count of dollars" in reason
    assert _asked(question, "The port got $12.5 million in relief funding.") is None
    notice = "How many days' notice does the trading policy require?"  # a plural's possessive
    reason = _asked(notice, "The trading policy covers 12 officials.")
    assert reason is not None and "count of days" in reason
    assert _asked(notice, "The trading policy requires 45 days of notice.") is None


def test_a_percent_counts_nothing() -> None:
    question = "How many jobs were lost to the storm?"
    reason = _asked(question, "The storm depressed payrolls, and unemployment rose to 4.2 percent.")
    assert reason is not None and "count of jobs" in reason
    assert _asked(question, "The storm cost 33,000 jobs in September.") is None


def test_a_duration_a_year_or_a_clock_time_counts_nothing() -> None:
    question = "How many workers were on strike at the harbour?"
    for about in (
        "Cargo volumes fell over the three months of the strike at the harbour.",  # a duration
        "In 2024, the strike at the harbour ended.",  # a year, however punctuated
        "On March 25, the strike at the harbour ended.",  # a day of the month
        "The strike at the harbour was discussed until 1:35 p.m.",  # a clock time
    ):
        reason = _asked(question, about)
        assert reason is not None and "count of workers" in reason, about
    assert _asked(question, "About 2,300 dockers joined the strike at the harbour.") is None


def test_a_run_is_counted_by_its_place_in_order() -> None:
    question = "For how many consecutive years has harbour traffic grown?"
    assert _asked(question, "2024 marked the 12th consecutive year of growth in harbour traffic.") is None
    reason = _asked(question, "2024 marked the 12th year of the harbour traffic survey.")
    assert reason is not None and "count of consecutive" in reason


def test_a_number_of_things_is_not_the_figure_of_its_scope_or_a_rate() -> None:
    question = "How many users did the harbour berth dashboard alone have?"
    scope = "The number of users of four harbour dashboards (berths, cargo, pilots, tugs) increased each quarter."
    rate = "The average number of users increased by 140 percent from Q1 to Q4."
    for about in (scope, rate):
        reason = _asked(question, about)
        assert reason is not None and "count of users" in reason, about
    assert _asked(question, "The number of users of the berth dashboard rose to 1,209.") is None


def test_a_share_of_things_or_a_name_s_digits_count_none_of_them() -> None:
    question = "How many customer requests went unanswered during the COVID-19 closures?"
    for about in (
        "Before COVID-19, the archive answered 95 percent of customer requests on time.",
        "The archive has a substantial number of unanswered requests from the COVID-19 closures.",
    ):
        reason = _asked(question, about)
        assert reason is not None and "count of customer" in reason, about
    assert _asked(question, "During the closures, 41,000 customer requests went unanswered.") is None


def test_a_figure_the_question_quotes_is_not_the_figure_it_asks() -> None:
    """ "Of the roughly 170 berths reviewed, how many were closed?" is not answered by the 170 it
    quotes (`measures.unasked_figures`); a partitive or a copula before the counted noun still says
    what is counted, and small counts written in words count."""
    question = "of the roughly 170 berths the harbour reviewed, how many did it decide to close?"
    reason = _asked(question, "The harbour reviewed approximately 170 berths to decide which could be closed.")
    assert reason is not None and "count of berths" in reason
    assert _asked(question, "Of the berths reviewed, the harbour closed 12 berths.") is None
    copula = "of the 1,328 permits in the register, how many were crane permits?"
    reason = _asked(copula, "The register held 1,328 permits, among them crane permits.")
    assert reason is not None and "count of crane permits" in reason
    assert _asked("How many proposals did the plan submit?", "The plan called to submit two proposals.") is None


def test_after_a_premise_a_sum_or_another_count_is_said_in_the_question_proper_s_words() -> None:
    """ "How many dollars" counts in a unit any sum carries, and a count of something else may sit
    beside the premise's words: after a premise, such a count is said in the question proper's own
    words (`TIED_TERMS`); a count of the very noun asked needs no more."""
    question = "dec minutes: the harbour asked for a standstill on its debts. how many billions of dollars did the harbour owe?"
    beside = (
        "The harbour asked for a standstill on its debts. Separately, the board bought $175 billion of agency debt."
    )
    reason = _asked(question, beside)
    assert reason is not None and "count of dollars" in reason
    assert _asked(question, "The harbour owed about $26 billion of debts when it asked for a standstill.") is None
    called = (
        "The harbour's payroll drop may have been exaggerated by reserve call-ups. How many reservists were called up?"
    )
    reason = _asked(called, "The drop was exaggerated by bad weather and 2 reserve call-ups.")
    assert reason is not None and "count of reservists" in reason
    assert _asked(called, "About 150,000 reservists were called up by March.") is None
    # an acronym's plural is found where its name is spelled out
    officers = "fy15 harbour apr - after hiring more officers that year, how many ISSOs did the harbour have in total?"
    assert _asked(officers, "The hiring of eight Information System Security Officers brought the total to 12.") is None
