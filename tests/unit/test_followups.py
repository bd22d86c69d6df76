"""Follow-ups that say only what changes, written out from the thread's last question."""

from __future__ import annotations

import pytest

from core.orchestrator.followups import follow_up
from core.understanding.periods import period_mentions, shifted

FY18 = "How many retirement claims did OPM process in FY 2018?"
DOL = "Who is listed as Secretary of Labor in DOL's FY 2022-2026 strategic plan?"
ORCHARD = "What was Orchard's gross margin in Q1 2023?"
MARCH = "What did the Fed decide at its March 2023 meeting?"


@pytest.mark.parametrize(
    ("text", "last", "mentioned", "question"),
    [
        # another period replaces the last one's
        ("and in FY17?", FY18, ["OPM"], "How many retirement claims did OPM process in FY17?"),
        ("What about the FY 2020 one?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2020?"),
        # a period counted from the last one
        ("ok, and the year after that?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2019?"),
        ("a year earlier?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2017?"),
        (
            "what about the following fiscal year?",
            FY18,
            ["OPM"],
            "How many retirement claims did OPM process in FY 2019?",
        ),
        ("and the fiscal year before?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2017?"),
        ("and two years after that?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2020?"),
        ("3 quarters later?", ORCHARD, ["Orchard"], "What was Orchard's gross margin in Q4 2023?"),
        # a question of its own that only points back at the last subject, in a period of its own
        (
            "and what was it two fiscal years later?",
            FY18,
            ["OPM"],
            "How many retirement claims did OPM process in FY 2020?",
        ),
        ("what was it in FY 2016?", FY18, ["OPM"], "How many retirement claims did OPM process in FY 2016?"),
        # a question of its own counted from the last period asks itself, in that period; its "it"
        # stands for what the last question named
        ("and who signed it two years later?", FY18, ["OPM"], "who signed it? (OPM, FY 2020)"),
        (
            "did it go up the following year? to what?",
            "What was OPM's Collaborative Management Score in FY 2018?",
            ["OPM"],
            "did it go up? to what? (OPM, Collaborative Management Score, FY 2019)",
        ),
        ("and who signed the report two years later?", FY18, ["OPM"], "who signed the report? (FY 2020)"),
        ("and the previous quarter?", ORCHARD, ["Orchard"], "What was Orchard's gross margin in Q4 2022?"),
        ("the quarter after that?", ORCHARD, ["Orchard"], "What was Orchard's gross margin in Q2 2023?"),
        ("Previous year?", "What was the hotel limit in 2022?", [], "What was the hotel limit in 2021?"),
        # another name replaces the names the last question used; a plan's years stay its own
        (
            "Same question for the HHS plan.",
            DOL,
            ["DOL"],
            "Who is listed as Secretary of Labor in HHS's FY 2022-2026 strategic plan?",
        ),
        ("and for Bramble?", ORCHARD, ["Orchard"], "What was Bramble's gross margin in Q1 2023?"),
        ("thanks! what about Contoso?", ORCHARD, ["Orchard"], "What was Contoso's gross margin in Q1 2023?"),
        # without names the facets resolved: a name of the same family, or the question's one name
        (
            "same question for the SunPeak 550",
            "How much does the SunPeak 400 weigh?",
            [],
            "How much does the SunPeak 550 weigh?",
        ),
        (
            "and the BrightRoof Compact?",
            "How much does the SunPeak 400 weigh?",
            [],
            "How much does the BrightRoof Compact weigh?",
        ),
        ("what about Contoso?", ORCHARD, [], "What was Contoso's gross margin in Q1 2023?"),
        ("what about N7712K?", "How badly was N5921D damaged?", [], "How badly was N7712K damaged?"),
        # a question of its own that points back at the last period reads that period
        (
            "and what was the staff's economic forecast at that meeting?",
            MARCH,
            [],
            "what was the staff's economic forecast at that meeting? (March 2023)",
        ),
        # … or at what the last question asked about, with a pronoun: that decision is of that date
        ("who voted against it?", MARCH, [], "who voted against it? (March 2023)"),
        (
            "ok, and which members dissented on that one?",
            MARCH,
            [],
            "which members dissented on that one? (March 2023)",
        ),
        # … or closing on "that", the last question's subject
        ("and what cap went with that?", MARCH, [], "what cap went with that? (March 2023)"),
        # … or "that same" whatever the last question called it
        (
            "what did the staff present at that same meeting?",
            "Who took the oath at the start of the June 2014 FOMC minutes?",
            [],
            "what did the staff present at that same meeting? (June 2014)",
        ),
        # a month named without its year is in the year being talked about
        (
            "and who did they pick as counsel at the July meeting?",
            "Who did the Committee select as secretary at the Oct 31-Nov 1, 2017 meeting?",
            [],
            "who did they pick as counsel at the July meeting? (July 2017)",
        ),
        # … also after another phrase ("and at the one in late May?": the last question in May)
        ("and at the one in late May?", MARCH, [], "What did the Fed decide at its May 2023 meeting?"),
        (
            "and at the one in mid-May?",
            "What did the Fed decide at its March 22, 2023 meeting?",
            [],
            "What did the Fed decide at its May 2023 meeting?",
        ),
        # a question of its own may open with a phrase before it asks
        ("at that meeting, who dissented?", MARCH, [], "at that meeting, who dissented? (March 2023)"),
        # "that meeting" is the last question's meeting, whatever other year the question names
        (
            "in the minutes of that meeting, who was elected chair for 2024?",
            "What did the Committee decide at its December 13, 2023 meeting?",
            [],
            "in the minutes of the December 13, 2023 meeting, who was elected chair for 2024?",
        ),
        # a question of its own in a period of its own that only repeats the last one's words
        # ("ones" for what it asked about) is the last question in that period
        (
            "and which ones did it approve in FY 2019?",
            "Which grants did the board approve in FY 2018?",
            [],
            "Which grants did the board approve in FY 2019?",
        ),
        # the occasion next to the last one, named by its neighbour (the planner finds its date):
        # the last question about it, in the last question's noun for it …
        ("and at the next meeting after that?", MARCH, [], "What did the Fed decide at the meeting after March 2023?"),
        (
            "ok and at the one after that?",
            "what did the fomc do with rates at the june 2023 meeting?",
            [],
            "what did the fomc do with rates at the meeting after june 2023?",
        ),
        (
            "and in the statement from the next meeting?",
            "How did the FOMC describe the labor market in its September 16, 2003 statement?",
            [],
            "How did the FOMC describe the labor market in the statement after September 16, 2003?",
        ),
        # … counted from the occasion's date, not from another date the last question names
        (
            "and at the next meeting?",
            "What rate for July 1995 is cited in the minutes of the August 1995 meeting?",
            [],
            "What rate for July 1995 is cited in the minutes of the meeting after August 1995?",
        ),
        # … or a question of its own about it, the last question's names beside its pronoun
        (
            "did he dissent again at the next meeting? on what grounds?",
            "Why did Lacker dissent at the September 2006 meeting?",
            [],
            "did he dissent again at the meeting after September 2006 (Lacker)? on what grounds?",
        ),
        (
            "and the statement from the meeting before that - how did it describe recent indicators?",
            "What did the May 9, 2007 statement say about growth?",
            [],
            "the statement from the meeting before May 9, 2007 - how did it describe recent indicators?",
        ),
        # a question of its own about the person the last reply named, hedged ("roughly how many")
        (
            "roughly how many fomc meetings had he attended?",
            "sept 2004 minutes - which committee officer announced he was retiring?",
            [],
            "roughly how many fomc meetings had he attended? (sept 2004)",
        ),
        # "it" in a question of its own is what the last question asked about, in its words
        (
            "how many people attended it, and where did the recording go up?",
            "In OPM's FY 2016 report, what panel did OPM host on benefits for LGBT employees?",
            ["OPM"],
            "how many people attended it, and where did the recording go up? (OPM, FY 2016, report, panel, host, "
            "benefits, LGBT, employees)",
        ),
        # another subject in the same scope: the last question's names and period
        ("what about real gross output?", FY18, ["OPM"], "real gross output (OPM, FY 2018)"),
        ("and the discount rate?", MARCH, [], "the discount rate (March 2023)"),
    ],
)
def test_a_follow_up_is_the_last_question_with_what_changed(
    text: str, last: str, mentioned: list[str], question: str
) -> None:
    assert follow_up(text, last, mentioned) == question


@pytest.mark.parametrize(
    ("text", "last", "mentioned"),
    [
        ("What are the core hours?", ORCHARD, ["Orchard"]),  # a new question
        ("What is the budget this year?", ORCHARD, ["Orchard"]),  # "this year" is today's, not the thread's
        ("Who signed the FY 2019 report at that time?", FY18, ["OPM"]),  # names its own period
        ("thanks", ORCHARD, ["Orchard"]),
        ("and the year after that?", "List all receipts", []),  # nothing to count from
        # several names and none that the facets resolved: which one to replace is not known
        ("Same question for the HHS plan.", DOL, []),
        ("Who signed that report?", MARCH, []),  # "report" is not the occasion the last question dated
        ("the year before I joined?", FY18, ["OPM"]),  # more than a counted period
        ("what about it?", FY18, ["OPM"]),  # no subject of its own
        ("what about real gross output?", "What is real output?", []),  # no scope to keep
        ("what may the Board do next?", MARCH, []),  # "may" is no month
    ],
)
def test_other_messages_are_not_rewritten(text: str, last: str, mentioned: list[str]) -> None:
    assert follow_up(text, last, mentioned) is None


def test_periods_are_read_longest_first_and_shift_by_their_own_unit() -> None:
    found = period_mentions("In FY 2016 and Q3 2022, March 2023, 2019, and the 2022-2026 plan")
    assert [(p.kind, p.year, p.quarter) for p in found] == [
        ("fiscal", 2016, 0),
        ("quarter", 2022, 3),
        ("month", 2023, 0),
        ("year", 2019, 0),
    ]
    assert period_mentions("OPM's FY 2022\u2013FY 2026 Strategic Plan and its 2020-2024 plan") == []
    fiscal, quarter, month, year = found
    assert shifted(fiscal, "year", 1) == "FY 2017"
    assert shifted(quarter, "quarter", 2) == "Q1 2023"
    assert shifted(quarter, "year", -1) == "Q3 2021"
    assert shifted(month, "year", 1) == "March 2024"
    assert shifted(year, "quarter", 1) is None


def test_a_question_about_someone_the_last_reply_named_keeps_its_period() -> None:
    reply = "Voting against the action was Dana Whitlock, who preferred to leave the rate unchanged. [1]"
    asked = "Who voted against the decision at the March 2023 meeting?"
    assert (
        follow_up("ok and what was Whitlock's reasoning?", asked, [], reply)
        == "what was Whitlock's reasoning? (March 2023)"
    )
    assert (
        follow_up("What did Whitlock say about wages?", asked, [], reply)
        == "What did Whitlock say about wages? (March 2023)"
    )
    # a name the reply did not write is a question of its own; so is one naming its own period
    assert follow_up("What did Okafor say about wages?", asked, [], reply) is None
    assert follow_up("What did Whitlock say in May 2024?", asked, [], reply) is None
    assert follow_up("What did Whitlock say about wages?", "Who voted against?", [], reply) is None  # no period to keep


def test_a_follow_up_s_own_question_keeps_the_last_period_whatever_horizon_it_names() -> None:
    asked = "In the August 2010 harbour minutes, what happened to berth fees in July?"
    own = "and in that same set of minutes, by roughly how much did staff expect dredging to cut waits through the end of 2011?"
    assert follow_up(own, asked, []) == (
        "that same set of minutes, by roughly how much did staff expect dredging to cut waits"
        " through the end of 2011? (August 2010)"
    )
    # a period of its own, not a horizon, is still the same question for that period
    assert follow_up("and in 2011?", asked, []) == "In the 2011 harbour minutes, what happened to berth fees in July?"


def test_a_follow_up_in_the_same_documents_keeps_their_period_whatever_month_it_names() -> None:
    asked = "According to the July 2015 harbour minutes, what had reduced the share of berths in use?"
    own = "in those same minutes, what curtailed crane work in April besides maintenance?"
    assert follow_up(own, asked, []) == f"{own} (July 2015)"
    # with no documents pointed back at, a month without a year is in the year talked about
    assert follow_up("what happened to crane work in April?", asked, []) == (
        "what happened to crane work in April? (April 2015)"
    )


def test_those_and_it_point_back_at_the_last_question_s_source_and_names() -> None:
    headed = "ows fy15 apr: between FY 2007 and FY 2014, how many audit findings did the inspector identify?"
    again = "and how many of those were repeats of an earlier finding?"
    assert follow_up(again, headed, []) == "how many of those were repeats of an earlier finding? (fy15)"
    plan = "In its 2022-2026 plan, what is the Widget Office doing about outdated catalog entries?"
    assert (
        follow_up("besides that, what else does it commit to doing every year?", plan, [])
        == "besides that, what else does it commit to doing every year? (Widget Office)"
    )
    # "those" before a noun of its own is no pronoun, and a message with no pronoun is its own question
    assert follow_up("what do those reports say about catalogs?", plan, []) is None


def test_a_demonstrative_before_a_noun_just_said_points_back() -> None:
    """ "Those engagements", "that steepening": English points back with a demonstrative and the noun."""
    asked = "In the harbour board's FY 2022 report, how many times did users engage with its berth posts?"
    again = "which platform accounted for the most of those engagements?"
    assert follow_up(again, asked, []) == f"{again} (FY 2022)"
    minutes = "jan 2021 harbour minutes - what did berth fees do over the intermeeting period?"
    reply = "Berth fees rose and the fee curve steepened, mostly late in the period. [1]"
    steep = "and after what event did most of that steepening occur?"
    assert follow_up(steep, minutes, [], reply) == "after what event did most of that steepening occur? (jan 2021)"
    # a noun neither the question nor its reply wrote is a question of its own, unless the message
    # links itself to the last one ("and …", `test_a_linked_question_goes_on_in_the_last_period`)
    assert follow_up("after what event did most of that dredging occur?", minutes, [], reply) is None
    # "its" stands for what the last question named, in the words the documents know it by
    plan = "wob 2022-26 strategic plan, objective 3.1 berth records - what's it about?"
    own = "besides digitization, what settings will its records guidance cover?"
    assert follow_up(own, plan, ["WOB"]) == f"{own} (WOB)"


def test_a_linked_question_goes_on_in_the_last_period() -> None:
    """ "and …", "so …", "ok, also …": a question of its own that opens with a conjunction continues the
    last turn, in the date of the occasion it was about (the whole date, not only its year)."""
    minutes = "In the minutes of the January 27-28, 2004 harbour meeting, what did the pilots' report conclude?"
    own = "so what did the board decide about them, and would they keep any role?"
    assert follow_up(own, minutes, []) == f"{own} (January 27-28, 2004)"
    assert follow_up("and how likely did they think that was?", minutes, []) == (
        "how likely did they think that was? (January 27-28, 2004)"
    )
    # without the conjunction, and with nothing pointing back, it is a question of its own
    assert follow_up("how likely did the board think a strike was?", minutes, []) is None
    moved = "What did the harbour board do at its emergency session on January 21, 2008?"
    assert follow_up("and who voted no on that one?", moved, []) == "who voted no on that one? (January 21, 2008)"


def test_time_pointed_back_at_and_the_occasion_right_after() -> None:
    """ "by then", "over that intermeeting period", "the meeting right after that one", "the september
    one", "anyone dissent on that one?": English ways to stay in, or step from, the last occasion."""
    read = "I'm reading the minutes of the November 4-5, 2020 harbour meeting, the part on berth fees."
    assert (
        follow_up("how high had fees got by then?", read, []) == "how high had fees got by then? (November 4-5, 2020)"
    )
    opened = "Pull up the minutes of the September 21-22, 2021 harbour meeting."
    own = "what was average berth use over that intermeeting period, versus the previous one?"
    assert follow_up(own, opened, []) == f"{own} (September 21-22, 2021)"
    asked = "What fee did they set at the July 2019 Harbour Board meeting?"
    assert follow_up("ok and at the meeting right after that one?", asked, []) == (
        "What fee did they set at the meeting after July 2019?"
    )
    assert follow_up("what about the september one that year?", asked, []) == (
        "What fee did they set at the September 2019 Harbour Board meeting?"
    )
    assert follow_up("anyone dissent on that one?", asked, []) == "anyone dissent on that one? (July 2019)"
    plan = "wob strategic plan - what is objective 6.2.4 (Berth Records) about?"
    assert follow_up("ok and the one right after it, 6.2.5 - what does that objective aim for?", plan, ["WOB"]) == (
        "the one right after it, 6.2.5 - what does that objective aim for? (Berth Records, WOB)"
    )


def test_a_question_that_goes_on_keeps_the_last_names_but_not_its_deadline() -> None:
    """The scope a follow-up goes on in is the last question's names the documents know and the time
    it was about; "by 2030" is what it asked about (a deadline), not when."""
    asked = "How many zero-emission ferries does the Harbour Office want in its fleet by 2030?"
    assert follow_up("what percentage increase is that?", asked, ["Harbour Office"]) == (
        "what percentage increase is that? (Harbour Office)"
    )
    # "that", the subject of "is that compared", is what the last question asked for: its words go along
    target = "What's the WOB's FY 2022 target for the number of berth permits?"
    assert follow_up("and what baseline number is that compared against?", target, ["WOB"]) == (
        "what baseline number is that compared against? (WOB, FY 2022, target, berth, permits)"
    )
    deadline = "What is the Harbour Office's target for the berth accident rate by September 30, 2023?"
    assert follow_up("what baseline rate is that measured against?", deadline, ["Harbour Office"]) == (
        "what baseline rate is that measured against? (Harbour Office, target, berth, accident)"
    )
    # "that" before a noun of its own is a determiner: nothing points back
    assert follow_up("what baseline is that measure's owner held to?", deadline, ["Harbour Office"]) is None
    # a subject of its own, which neither the last question nor its reply wrote, is not asked in their names
    founded = "according to the WOB's plan, when was the Harbour Office established?"
    assert follow_up("and when was the Pilot Board set up?", founded, ["WOB", "Harbour Office"]) is None


def test_a_question_after_a_message_that_only_said_where_to_read_is_asked_there() -> None:
    """ "I'm reading the minutes of …", "jan 2022 harbour minutes - the part on berths": a message that
    asks nothing sets where the next question is asked; after a question, a new question with nothing
    pointing back is a question of its own."""
    opened = "Let's go to the minutes of the June 21-22, 2011 harbour meeting, the part on pilot safety."
    own = "in which berth did a few members worry that checks had eased too much, and why?"
    assert follow_up(own, opened, []) == f"{own} (June 21-22, 2011)"
    casual = "jan 25-26 2022 harbour minutes - the meeting where they set the new fee principles"
    assert follow_up("what did members say about pilot absences?", casual, []) == (
        "what did members say about pilot absences? (jan 25-26 2022)"
    )
    asked = "What did the harbour board decide at its June 21-22, 2011 meeting?"
    assert follow_up(own, asked, []) is None
    # a message that names no period or name sets no scope
    assert follow_up(own, "List all receipts", []) is None
