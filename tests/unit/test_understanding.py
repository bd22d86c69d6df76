"""The language of questions: date hints against a fixed clock, quarters, quantities, the pronoun rule."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from adapters.annotations.units import UnitNormalizer, UnitQuantityReader
from core.understanding import (
    constraints,
    date_hints,
    first_pronoun,
    is_date_word,
    points_at_many,
    quarter_mentions,
    quarters,
    years,
)
from core.understanding.periods import names_neighbour, nearest_occasion, neighbour_window

TODAY = dt.date(2026, 11, 21)
D = dt.date


@pytest.mark.parametrize(
    ("text", "start", "end", "requested"),
    [
        ("What changed last year?", D(2025, 1, 1), D(2025, 12, 31), [2025]),
        ("the previous year's figures", D(2025, 1, 1), D(2025, 12, 31), [2025]),
        ("receipts this year", D(2026, 1, 1), D(2026, 12, 31), [2026]),
        ("policies since March 2022", D(2022, 3, 1), None, [2022, 2023, 2024, 2025, 2026]),
        ("policies since 2024", D(2024, 1, 1), None, [2024, 2025, 2026]),
        ("rules before May 2023", None, D(2023, 4, 30), []),
        # "after" a period begins when it ends; a day, or a span of days, bounds a window too
        ("policies after March 2022", D(2022, 4, 1), None, [2022, 2023, 2024, 2025, 2026]),
        ("the meeting after September 16, 2003", D(2003, 9, 17), None, list(range(2003, 2027))),
        ("the meeting after June 29-30, 2004", D(2004, 7, 1), None, list(range(2004, 2027))),
        ("the statement before May 9, 2007", None, D(2007, 5, 8), []),
        ("receipts from 2 months ago", D(2026, 9, 1), D(2026, 9, 30), [2026]),
        ("spend last month", D(2026, 10, 1), D(2026, 10, 31), [2026]),
        ("spend last quarter", D(2026, 7, 1), D(2026, 9, 30), [2026]),
        ("spend this quarter", D(2026, 10, 1), D(2026, 12, 31), [2026]),
        ("receipts in May 2023", D(2023, 5, 1), D(2023, 5, 31), [2023]),
        ("revenue in Q3 2024", D(2024, 7, 1), D(2024, 9, 30), [2024]),
        ("revenue in 2024-Q3", D(2024, 7, 1), D(2024, 9, 30), [2024]),
        ("revenue in the third quarter of 2025", D(2025, 7, 1), D(2025, 9, 30), [2025]),
        ("revenue for the quarter ended 30 June 2025", D(2025, 4, 1), D(2025, 6, 30), [2025]),
        ("revenue for the quarter ending September 30, 2024", D(2024, 7, 1), D(2024, 9, 30), [2024]),
        ("limits between 2021 and 2023", D(2021, 1, 1), D(2023, 12, 31), [2021, 2022, 2023]),
        ("the hotel limit in 2022 and 2024", D(2022, 1, 1), D(2024, 12, 31), [2022, 2024]),
        ("jul/aug 2018 minutes", D(2018, 7, 1), D(2018, 8, 31), [2018]),
        ("Compare the hotel limits of the 2022 and 2024 travel policies", D(2022, 1, 1), D(2024, 12, 31), [2022, 2024]),
        ("the Dec/Jan 2024 meeting", D(2023, 12, 1), D(2024, 1, 31), [2023, 2024]),
        (
            "the rate for July 1995 cited in the minutes of the August 1995 meeting",
            D(1995, 8, 1),
            D(1995, 8, 31),
            [1995],
        ),
        ("at the Jan/Feb 2023 meeting, who was named effective Feb 21, 2023?", D(2023, 1, 1), D(2023, 2, 28), [2023]),
        ("In OPM's FY 2016 report, what was the FY 2014 result?", D(2016, 1, 1), D(2016, 12, 31), [2016]),
        (  # "according to" names the source by its date: the quarter is what it writes about
            "According to the May 2018 minutes, what boosted sales in the fourth quarter of 2017?",
            D(2018, 5, 1),
            D(2018, 5, 31),
            [2018],
        ),
        # A heading names the source: the other dates are what it writes about
        ("jan 2007 minutes: net exports were strong in Q4 2006. why?", D(2007, 1, 1), D(2007, 1, 31), [2007]),
        ("sept 2014 minutes - how many dealers picked Q2 2015?", D(2014, 9, 1), D(2014, 9, 30), [2014]),
        ("In 2022, State and USAID will see what?", D(2022, 1, 1), D(2022, 12, 31), [2022]),  # no heading
        (
            "after the March 2020 meeting, what did the minutes of the June 2020 meeting say?",
            D(2020, 6, 1),
            D(2020, 6, 30),
            [2020],
        ),
    ],
)
def test_date_hints_against_a_fixed_clock(
    text: str, start: dt.date | None, end: dt.date | None, requested: list[int]
) -> None:
    hints = date_hints(text, TODAY)
    assert (hints.year_mode, hints.date_start, hints.date_end, hints.requested_years) == (
        "explicit",
        start,
        end,
        requested,
    )


def test_a_fiscal_year_heading_leaves_the_window_to_the_documents_labels() -> None:
    hints = date_hints("fy16 opm report: the program started in May 2012 with how many employers?", TODAY)
    assert (hints.year_mode, hints.date_start, hints.date_end) == ("none", None, None)


@pytest.mark.parametrize(
    "text",
    [
        "What did the action of January 21, 2008 do?",
        "what happened on 21 January 2008",
        "the Jan. 21st, 2008 cut",
    ],
)
def test_a_day_named_reads_the_week_around_it(text: str) -> None:
    hints = date_hints(text, TODAY)
    assert (hints.date_start, hints.date_end, hints.requested_years) == (D(2008, 1, 14), D(2008, 1, 28), [2008])


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Per the September 17-18, 2013 minutes, why did she dissent?", D(2013, 9, 10), D(2013, 9, 25)),
        ("What did Chair Powell open the Nov 1–2, 2022 meeting with?", D(2022, 10, 25), D(2022, 11, 9)),
        ("the January 31-February 1, 2023 meeting", D(2023, 1, 24), D(2023, 2, 8)),
        ("at the 30-31 January 2001 meeting", D(2001, 1, 23), D(2001, 2, 7)),
    ],
)
def test_a_span_of_days_reads_the_week_around_it(text: str, start: dt.date, end: dt.date) -> None:
    hints = date_hints(text, TODAY)
    assert (hints.date_start, hints.date_end, hints.requested_years) == (start, end, [start.year])


@pytest.mark.parametrize(
    "text",
    [
        "What is EPA's target for HFC consumption by September 30, 2023?",
        "By FY 2026, what share of the holdings will be processed?",
        "what should the backlog be by the end of 2027",
        # a forecast's horizon
        "how much did the staff expect repayments to shrink the holdings through the end of 2011?",
    ],
)
def test_a_deadline_is_a_target_not_a_window(text: str) -> None:
    assert date_hints(text, TODAY).year_mode == "none"
    assert date_hints(text + " as reported in 2022", TODAY).requested_years == [2022]


def test_a_span_through_a_year_is_still_a_window() -> None:
    hints = date_hints("what happened from 2009 through 2011?", TODAY)
    assert (hints.date_start, hints.date_end) == (D(2009, 1, 1), D(2011, 12, 31))


def test_relative_dates_follow_the_clock() -> None:
    assert date_hints("what changed last year", D(2031, 2, 1)).requested_years == [2030]


@pytest.mark.parametrize("text", ["What is the latest travel policy?", "the current rules", "what applies now"])
def test_latest_and_current_prefer_new_documents_without_a_filter(text: str) -> None:
    hints = date_hints(text, TODAY)
    assert (hints.year_mode, hints.date_start, hints.recent_year_window) == ("none", None, 1)


def test_an_occasion_named_by_its_neighbour_is_the_nearest_date_the_documents_carry() -> None:
    dates = [D(2004, 6, 29), D(2004, 8, 10), D(2004, 9, 21)]

    def nearest(text: str) -> dt.date | None:
        hints = date_hints(text, TODAY)
        return nearest_occasion(text, hints.date_start, hints.date_end, dates)

    assert nearest("what did they do at the meeting after June 2004?") == D(2004, 8, 10)
    assert nearest("and the one after June 29-30, 2004?") == D(2004, 8, 10)
    assert nearest("the statement before September 21, 2004") == D(2004, 8, 10)
    assert nearest("what did they do at the next meeting after September 2004?") is None  # none carried
    # A span of time, or a window that is no neighbour's, is not narrowed to one date.
    assert nearest("what happened in the year after 2003?") is None
    assert nearest("what happened after June 2004?") is None
    assert names_neighbour("at the meeting after June 2004") and not names_neighbour("after June 2004")


def test_a_neighbour_asked_of_a_kind_it_lacks_is_read_in_the_records_it_is_named_by() -> None:
    dates = [D(2004, 6, 30), D(2004, 8, 10), D(2004, 9, 21)]
    minutes = [D(2004, 6, 30), D(2004, 9, 21)]  # the August meeting kept its statement only

    def window(text: str, kind_dates: list[dt.date]) -> tuple[dt.date, dt.date] | None:
        hints = date_hints(text, TODAY)
        return neighbour_window(text, hints.date_start, hints.date_end, dates, kind_dates)

    # The June minutes say when the next meeting is to be held.
    asked = "When was the meeting after June 2004 to be held, per the minutes?"
    assert window(asked, minutes) == (D(2004, 6, 30), D(2004, 8, 10))
    assert window("what did the statement of the meeting after June 2004 say?", dates) == (D(2004, 8, 10),) * 2
    assert window("what did they do at the meeting after June 2004?", []) == (D(2004, 8, 10),) * 2
    assert window("the minutes of the meeting before September 21, 2004", minutes) == (D(2004, 8, 10), D(2004, 9, 21))
    assert window("what happened after June 2004?", minutes) is None


def test_no_date_means_no_window() -> None:
    assert date_hints("What is the parental leave policy?", TODAY).year_mode == "none"


def test_quarters_in_every_form_and_their_mentions() -> None:
    text = "Compare Q3 2025, 2024-Q2, the fourth quarter of 2023 and the quarter ended 31 March 2022"
    assert quarters(text) == [(3, 2025), (2, 2024), (4, 2023), (1, 2022)]
    assert {"q3 2025", "third quarter of 2025", "30 september 2025", "september 30, 2025"} <= set(
        quarter_mentions(3, 2025)
    )


def test_years_and_date_words() -> None:
    assert years("limits in 2024, 2022 and 2024 for K-450") == [2024, 2022]
    # A period written as one word ("per ED's FY22 plan") is no word a source must repeat.
    written = ["2024", "Q3", "May", "sept", "market", "400", "FY22", "fy2016", "FY", "K900"]
    assert [w for w in written if is_date_word(w)] == ["2024", "Q3", "May", "sept", "FY22", "fy2016"]


def test_date_hints_are_read_safely_from_many_threads() -> None:
    results: list[object] = []

    def read() -> None:
        results.append(date_hints("policies since March 2022", TODAY).date_start)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [D(2022, 3, 1)] * 8


QUANTITIES = UnitQuantityReader(units=UnitNormalizer())


@pytest.mark.parametrize(
    ("text", "label", "operator", "value", "unit"),
    [
        ("Which panels are lighter than 25 kg?", "weight", "<", 25.0, "kg"),
        ("panels under 2 ft", "panels", "<", 0.6096, "m"),
        ("receipts for more than £40", "total", ">", 40.0, "GBP"),
        ("bags at most 16 oz", "bags", "<=", 0.45359237, "kg"),
        ("panels wider than 1.1 m", "width", ">", 1.1, "m"),
        ("width <= 1.2 m", "width", "<=", 1.2, "m"),
        ("inverters over 0.5 kW", "inverters", ">", 500.0, "W"),
        ("anything that costs 40 €", "price", "=", 40.0, "EUR"),
        ("more than 3 receipts", None, ">", 3.0, None),
    ],
)
def test_quantities_become_constraints_in_the_documents_units(
    text: str, label: str | None, operator: str, value: float, unit: str | None
) -> None:
    found = constraints(text, QUANTITIES)
    assert [(c.label, c.operator, c.value, c.unit) for c in found] == [(label, operator, pytest.approx(value), unit)]


@pytest.mark.parametrize(
    "text", ["What is the width of the SunPeak 400?", "receipts from 2024", "top 5 vendors", "error E04 on the K-450"]
)
def test_names_years_and_counts_are_not_constraints(text: str) -> None:
    assert constraints(text, QUANTITIES) == []


def test_the_pronoun_rule() -> None:
    assert first_pronoun("What is its width?") == "its"
    assert first_pronoun("How heavy is that one?") == "that one"
    assert first_pronoun("What is the width of the SunPeak 400?") is None
    assert points_at_many("Compare those") and points_at_many("Which of them is lighter?")
    assert not points_at_many("What is its width?")
    assert not points_at_many("Is it theirs?")  # a word that starts like a pronoun is not one
