"""Intake: normalisation, coherence, intent, years and top-k."""

from __future__ import annotations

import datetime as dt

import pytest

from core.orchestrator.intake import run_intake


def test_years_become_an_explicit_date_window() -> None:
    intake = run_intake("What was the hotel limit in 2022 and 2024?")
    assert intake.year_mode == "explicit"
    assert intake.requested_years == [2022, 2024]
    assert (intake.date_start, intake.date_end) == (dt.date(2022, 1, 1), dt.date(2024, 12, 31))


def test_no_year_means_no_window() -> None:
    intake = run_intake("What is the parental leave policy?")
    assert intake.year_mode == "none" and intake.date_start is None


@pytest.mark.parametrize("text", ["", "   ", "???", "!!! ### $$$", "1234 5678"])
def test_incoherent_inputs(text: str) -> None:
    assert run_intake(text).coherence == "incoherent"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("hello there", "chit_chat"),
        ("help", "chit_chat"),
        ("show the rest", "command"),
        ("List all tire receipts from 2023", "enumeration"),
        ("How wide is the SunPeak 400?", "numeric_lookup"),
        ("Compare the 2022 and 2024 travel policies", "comparison"),
        ("Why do we fit winter tyres?", "conceptual"),
    ],
)
def test_intent(text: str, intent: str) -> None:
    assert run_intake(text).intent == intent


def test_top_k_hints() -> None:
    assert run_intake("show the top 5 vendors").top_k == 5
    assert run_intake("top 500 vendors").top_k == 50
    assert run_intake("list all receipts").top_k == 50
    assert run_intake("what is the policy").top_k == 10


def test_signals() -> None:
    signals = run_intake('Which "SunPeak 400" panels from ACME have width <= 1.2 m?').signals
    assert signals.literals == ["SunPeak 400"]
    assert "ACME" in signals.acronyms
    width = [n for n in signals.numbers if n.unit == "m"]
    assert width and width[0].operator == "<=" and width[0].value == 1.2
