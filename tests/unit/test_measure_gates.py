"""The support gate's measures: an answer gives the count, share, date, amount, figure, name or
series point its question asks for (counts: `test_count_gate.py`), in a sentence about what is asked (`core.orchestrator.measures`)."""

from __future__ import annotations

from core.orchestrator.measures import unfilled_item
from tests.answer_writer import gate_reason as _asked


def test_a_how_much_did_it_cost_question_needs_an_amount_of_money() -> None:
    question = "How much did the harbour authority's move to the new terminal cost?"
    reason = _asked(question, "The harbour authority completed its move to the new terminal in 2024, on time.")
    assert reason is not None and "amount of money" in reason
    counted = "Through the new terminal the authority processed 180 permits, 96.1 percent of them on time."
    assert _asked(question, counted) is not None  # a count and a percentage are no cost
    assert _asked(question, "The move to the new terminal cost $4.2 million.") is None
    assert _asked("What budget does the plan give the harbour office?", "The plan describes the harbour office.")
    assert _asked("By how much did spending on the terminal fall?", "Spending on the terminal fell 12 percent.") is None
    assert _asked("Which price index does the harbour authority use?", "The authority uses the PCE index.") is None


def test_a_to_what_level_question_needs_a_figure_said_of_what_it_asks() -> None:
    question = "The port authority cut its berthing fee in late August. To what level did it cut it?"
    reason = _asked(question, "A cut by the port authority in its berthing fee in late August eased costs.")
    assert reason is not None and "no figure" in reason
    # a figure said of something else is not the level asked
    beside = "The fee cut in late August eased costs. Cargo volumes rose 4 percent."
    assert _asked(question, beside) is not None
    assert _asked(question, "In late August the port authority cut its berthing fee to $310 per call.") is None
    assert _asked("What rate did the port set for berthing?", "The port set a berthing rate of 2.5 percent.") is None
    # "which rate" asks which one, and a pace is a manner: both are answered in words
    assert (
        _asked("Which alternative berthing rate did staff discuss?", "Staff discussed the overnight berthing rate.")
        is None
    )
    assert _asked("At what pace did berthing fees rise?", "Berthing fees rose at a moderate pace.") is None
    # "at what level" may ask for a place in an order, named in the question's own words
    question = "What does the plan adopt for port safety, and at what level?"
    assert _asked(question, "The port adopts a safe berthing approach at the authority level.") is None
    assert _asked(question, "The port adopts a safe berthing approach for all its berths.") is not None


def test_an_age_a_reading_and_a_level_set_to_are_figures_asked() -> None:
    """ "How old was he?", "what was the index reading?" and "what did the law cut the rate to?" ask
    for a figure: words about the subject answer none of them."""
    old = "The harbour minutes honour the pilot Jan Berg. How old was he when he retired?"
    assert _asked(old, "The minutes honour the pilot Jan Berg, who retired after a long career.") is not None
    assert _asked(old, "Jan Berg retired from the harbour at 64 years old.") is None
    reading = "The harbour index stayed low in May. What was the actual harbour index reading?"
    assert _asked(reading, "The harbour index remained at historically low levels in May.") is not None
    assert _asked(reading, "The harbour index reading was 12.4 in May.") is None
    cut = "What did the new law cut the harbour tax rate to?"
    assert _asked(cut, "The new law cut the harbour tax rate, which pilots welcomed.") is not None
    assert _asked(cut, "The new law cut the harbour tax rate to 21 percent.") is None
    raised = "Pilot hiring slowed after the levy went up. What was the harbour levy raised to?"
    assert _asked(raised, "Pilot hiring slowed after the harbour levy was raised.") is not None
    assert _asked(raised, "The harbour levy was raised to 8 percent in April.") is None
    assert _asked("What was the slowdown attributed to?", "The slowdown was attributed to the levy.") is None
    # a noun after "besides" is not what is asked: "what besides higher rates …" asks for something else
    besides = "Harbour tolls fell in May. What besides higher harbour rates was weighing on tolls?"
    assert _asked(besides, "Tolls fell on higher harbour rates and on worries about dredging delays.") is None


def test_a_how_large_question_needs_a_figure_said_of_what_it_asks() -> None:
    question = "The harbour fund was rescued in May. How large was the rescue package?"
    reason = _asked(question, "A rescue package for the harbour fund was agreed in May.")
    assert reason is not None and "no figure" in reason
    assert _asked(question, "The rescue package for the harbour fund came to $57 billion.") is None
    assert _asked(question, "The rescue package grew by two-thirds.") is None  # a figure in words
    quake = "What magnitude was the harbour earthquake?"
    assert _asked(quake, "The harbour earthquake added to uncertainty.") is not None
    assert _asked("How far had cargo output fallen?", "Cargo output had fallen 30 percent.") is None
    # a question that asks in a sentence naming nothing points back, and so may its answer
    each = "The port also enlarged its credit lines with two shippers. How big did each get?"
    assert _asked(each, "These arrangements now provide up to $30 billion and $6 billion.") is None
    assert _asked(each, "These arrangements were extended through September.") is not None
    # the verb and article before the noun's own words are not counted among them
    claims = "The storm boosted berth claims in early November. What was the peak weekly claims figure?"
    words = "Berth claims were boosted in early November but soon returned to about the same level."
    assert _asked(claims, words) is not None
    assert _asked(claims, "Weekly berth claims peaked at 4,390 in early November.") is None
    assert _asked("What was the impact of the levy on berth claims?", words) is None  # an impact
    # a clock time or a name's number is no figure of the package
    for beside in ("The rescue package was discussed at 9:00 a.m.", "The COVID-19 rescue package was agreed."):
        assert _asked(question, beside) is not None, beside


def test_a_named_measure_s_value_is_asked_whatever_its_name_s_length() -> None:
    """ "What baseline Career Satisfaction Index score": a proper name of several words is one word
    before the noun asked; a measure listed with no figure gives none."""
    question = "What baseline Harbour Pilot Satisfaction Index score does the plan report for goal 4.1.2?"
    listing = (
        "Performance Goal 4.1.2 Harbour Pilot Satisfaction Index Description Type Status By September 30, "
        "2026, the port will improve pilot satisfaction. Performance Goal 4.1.1 Berth score 4.5"
    )
    assert unfilled_item(question, [listing]) == "4.1.2"
    share = "harbour measure 3.3.3 - what % of pilots were trained in the baseline year?"
    reason = _asked(share, "Increase the percentage of pilots trained in night berthing.")
    assert reason is not None and "percentage or share" in reason
    assert _asked(share, "In the baseline year, 41 percent of pilots were trained.") is None


def test_a_figure_is_said_of_what_is_asked_by_more_than_one_word_of_a_long_question() -> None:
    question = (
        "april minutes say the harbour board of the northern port raised its pilotage levy during the"
        " intermeeting period - to what level?"
    )
    other = "The Committee kept the levy on pilot boats at 2 percent."  # one word of nine
    reason = _asked(question, f"The northern harbour board raised its pilotage levy. [1] {other} [2]")
    assert reason is not None and "no figure" in reason
    assert _asked(question, "The northern harbour board raised its pilotage levy to 3.5 percent.") is None
    # after a statement, the sentence that asks says what the figure is of
    premise = "The april minutes say harbour berthing hit a record high in the storm. What was that tug rate?"
    assert _asked(premise, "Harbour berthing hit a record high in the storm, and cargo fell 2 percent.") is not None
    assert _asked(premise, "In the storm the tug rate for berthing reached 4 percent.") is None
    # every sentence with a question mark asks
    two = "What share of berth inspections did the port finish within the 60-day window? Target was 90%, right?"
    finished = "The port finished 70.1 percent of berth inspections within 60 days. [1] The target was 90 percent. [2]"
    assert _asked(two, finished) is None


def test_a_baseline_asked_is_not_answered_by_a_target() -> None:
    question = "What baseline score for berth safety did the harbour plan measure?"
    target = (
        "The harbour will improve berth safety from a baseline measure."
        " By FY 2026, it will raise the berth safety score by 50 percent."
    )
    reason = _asked(question, target)
    assert reason is not None and "baseline" in reason
    assert _asked(question, "The berth safety score had a baseline of 61 percent in FY 2021.") is None
    assert _asked("What was the FY 2020 baseline for berth safety?", target) is not None  # the label asked
    assert _asked("What was the pilots' actual objection to berth safety?", target) is None  # an objection
    share = "What share of berths had safety plans at the baseline for harbour measure 4.2.5?"
    assert _asked(share, "By 2026, 50% of berths have developed safety plans.") is not None
    # a table's row cut from its header may hold the figure asked; a sentence of one figure does not
    row = "4.04D Berth safety score 61.0 62.5 63.1 64.0 Met Improving 4.04E Pilot score 80 81 82 83 Met"
    assert _asked("What actual berth safety score did 4.04D record in FY 2014?", row) is None
    # a target is written as what will be, often without the word: it is not judged by its label
    goal = "The harbour's goal will be that 75 percent of pilots rate berth safety as effective."
    assert _asked("What effectiveness rating target did the harbour set for berth safety?", goal) is None
    assert _asked(question, "By FY 2026, berth safety scores will be 50 percent higher.") is not None
    # a figure asked with no series label, or no figure asked, is not judged so
    assert _asked("What berth safety score did the plan set?", target) is None
    assert _asked("Which office sets the baseline for berth safety?", target) is None


def test_a_which_bank_question_needs_a_name_the_question_does_not_write() -> None:
    question = "june minutes say harbour stocks fell on a trading loss at a major US bank - which bank was it?"
    reason = _asked(question, "Disclosure of a large trading loss at a major U.S. bank also weighed on harbour stocks.")
    assert reason is not None and "names nothing" in reason
    assert _asked(question, "Harbour stocks fell in June after a trading loss at Northwind Bank.") is None
    union = "The port dispute was settled in March. Which union was party to it?"
    assert _asked(union, "The port dispute was settled in March, and cargo volumes recovered.") is not None
    assert _asked(union, "The dispute between the port and the Harbour Workers Union was settled.") is None
    # a word the question writes in lower case is a name where the answer capitalises it
    named = "What's the name of the harbour-led initiative on the harbour workplace of the future?"
    assert _asked(named, "Ports develop solutions through the Workplace 2030 initiative.") is None
    # a kind of thing asked for in lower case ("which sectors") is answered in words
    assert _asked("Which sectors were weak in March?", "Spending on housing and manufacturing was weak.") is None


def test_the_name_asked_is_said_of_what_is_asked() -> None:
    """A name the question does not write, in a sentence about something else, is not the name asked."""
    question = "The minutes mention the closing of Harbour Mutual. Which bank acquired its berthing operations?"
    beside = "The troubles of Northwind Corporation, along with the closing of Harbour Mutual, worried markets."
    reason = _asked(question, beside)
    assert reason is not None and "names nothing" in reason
    # the kind's noun ("bank") in another name is not what is asked
    assert _asked(question, "Swap lines with the Bank of Contoso were approved.") is not None
    assert _asked(question, "Contoso Trust acquired the berthing operations of Harbour Mutual.") is None
    # "who" asks for a person or a body by name, said of what is asked
    who = "The harbour pilot chief was defeated in the primary election. Who defeated him?"
    assert _asked(who, "The harbour pilot chief was defeated in the primary election, and berth fees fell.") is not None
    assert _asked(who, "Ms. Alvarez defeated the harbour pilot chief in the primary election.") is None
    # "else" asks for more of the kind: no answer repeats it
    subcommittee = "The May minutes name a harbour subcommittee. Who else was on it?"
    assert _asked(subcommittee, "The subcommittee was chaired by Governor Kohn with President Stern.") is None
    # "who" in one sentence asks in its own words, and "what did members say" asks for no name
    lacker = "Mr. Lacker dissented because he preferred an increase in the harbour rate."
    assert _asked("Aug 2006 the harbour board paused - who wanted to keep hiking?", lacker) is None
    said = "Members said rising harbour rates had had surprisingly little effect on cargo."
    assert _asked("what did members say rising harbour rates had done to cargo?", said) is None
    # an acronym of the question's own words is no name it did not write
    vendors = "Which vendors hold the harbour's berth purchase agreement for cranes?"
    assert _asked(vendors, "Ports buy cranes from vendors through a berth purchase agreement (BPA).") is not None
    assert _asked(vendors, "Contoso Cranes holds the berth purchase agreement for cranes.") is None


def test_who_holds_a_role_is_answered_by_a_name_said_with_the_role() -> None:
    question = "harbour fy25 report - who is the new Chief Berthing Officer the harbour recruited?"
    # Before: a one-sentence "who" was never held to a name, and a sentence about the role answered.
    recruiting = "The harbour is recruiting a new Chief Berthing Officer to lead the berthing office."
    reason = _asked(question, recruiting)
    assert reason is not None and "names nothing" in reason
    assert _asked(question, "Dana Whitfield joined as the new Chief Berthing Officer in May.") is None
    assert _asked("Who was the chair of the harbour board?", "The harbour board met four times.") is not None
    # a relative "who" after another question word asks no one
    worried = "Members who were the most worried about berth fees wanted a review."
    assert _asked("what did the members who were the most worried say?", worried) is None


def test_a_how_much_question_needs_an_amount_said_of_what_it_asks() -> None:
    question = "The port's dredging fund ran out in July. How much debt was the port seeking to restructure?"
    reason = _asked(question, "The port's dredging fund ran out in July, as markets had expected.")
    assert reason is not None and "no amount" in reason
    assert _asked(question, "The port was seeking to restructure $18 billion of debt.") is None
    # an amount may be a degree, and a part asked with "how much of" is not judged so
    weight = "How much weight did berth survey respondents give the dredging story?"
    assert _asked(weight, "Berth survey respondents gave the dredging story little weight.") is None
    # an adjective that describes is no degree: "a limited effect" says of what kind, not how much
    assert _asked(question, "The port was seeking to restructure, with a limited effect on its debt.") is not None
    assert _asked("How much of the fall came from cargo?", "Most of the fall came from cargo.") is None
    dredge = "Per the March statement, how much silt would the harbour board dredge?"
    assert _asked(dredge, "The board will dredge silt in the amounts needed to keep berths open.") is None
    # what the amount is of may be a name
    fund = "how much did the Dredging Act originally put into the Harbour Relief Fund?"
    assert _asked(fund, "This bill provided approximately $14 billion for the Harbour Relief Fund.") is None
    assert _asked(fund, "The port paid $3 million in fees.") is not None


def test_an_item_s_number_is_no_figure() -> None:
    """ "Objective 1.3", "Table 4", "KPI 5.4.3": a document's numbered part measures nothing."""
    question = "How much would the harbour pilot pension proposal save each year?"
    for listing in (
        "Strategic Objective 1 .3: In FY 2019 the port submitted a harbour pilot pension proposal.",
        "KPI 5.4.3 harbour pilot pension proposal: submitted; see page 37.",
    ):
        reason = _asked(question, listing)
        assert reason is not None and "no amount" in reason, listing
    assert _asked(question, "Objective 1.3: the harbour pilot pension proposal would save $3 million a year.") is None


def test_a_percentage_asked_is_a_number_not_a_majority() -> None:
    question = "The berth vote went to the pilots. What percentage of pilots voted for it?"
    reason = _asked(question, "A majority of pilots voted for the berth plan.")
    assert reason is not None and "percentage or share" in reason
    assert _asked(question, "Of the pilots, 52 percent voted for the berth plan.") is None
    # "a majority" is a share
    assert _asked("What share of pilots voted for the berth plan?", "A majority of pilots voted for it.") is None


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
    assert _asked("What was the closing share price?", "The closing share price was $41.20.") is None  # a price
    # A share said of something else beside the inspections is not the share asked.
    # Before: any percent in the answer was the share.
    beside = "Harbour inspections found violations at 12 berths. Staff turnover was 9 percent."
    assert _asked(question, beside) is not None


def test_each_cited_piece_of_an_answer_is_a_statement_of_its_own() -> None:
    """A table's or a chart's text has no full stop: the citation mark ends what its source says."""
    question = "What share of harbour inspections found a violation last year?"
    cited = "Harbour inspections Description Type Percentage Target Actual Increased"
    answer = f"{cited} [1] 0 3 6 9 Year 9.3% 7.9% 6.6% Premium growth reported by the port [2]"
    reason = _asked(question, cited, answer=answer)
    assert reason is not None and "percentage or share" in reason
    assert _asked(question, cited, answer=f"{cited} 9.3% [1] Premium growth [2]") is None


def test_a_numbered_item_listed_without_a_figure_gives_none() -> None:
    listing = (
        "Measure 4.1.1 Dredged depth Type Metres Target 14 Actual 14.2 "
        "Measure 4.1.2 Berth turnaround Type Hours Target Actual Unspecified "
        "Measure 4.1.3 Pilot hours Type Hours Target 40"
    )
    assert unfilled_item("What berth turnaround target does measure 4.1.2 set?", [listing]) == "4.1.2"
    assert unfilled_item("What depth is targeted under measure 4.1.1?", [listing]) is None
    # the last entry may go on past the passage, and a question asking no figure is not judged
    assert unfilled_item("How many pilot hours does measure 4.1.3 target?", [listing]) is None
    assert unfilled_item("Who reports on measure 4.1.2?", [listing]) is None
    # a figure in words is a figure
    words = "Measure 4.1.4 Cranes By 2026, test how five crane designs can cut berth time. Measure 4.1.5 Tugs"
    assert unfilled_item("How many crane designs will measure 4.1.4 test?", [words]) is None


def test_after_a_premise_the_figure_is_said_of_the_question_proper() -> None:
    """A premise names the passage; the figure must carry the question proper's own words (two of
    them), not one word it shares with a figure said of something else (`said_of.TIED_TERMS`)."""
    question = (
        "The May harbour minutes say shippers were concerned about the new tariffs on imported timber and steel. "
        "What tariff rate was put on each?"
    )
    other_rate = (
        "Shippers were concerned about imported timber and steel, and the harbour's rate of growth slowed to 2 percent."
    )
    reason = _asked(question, other_rate)
    assert reason is not None and "no figure" in reason
    assert _asked(question, "The tariff rate was put at 25 percent on steel and 10 percent on timber.") is None
    # "one" stands for a noun said before it, and is no word the answer must repeat
    honour = (
        "The may minutes end with a vote letting the harbour master accept an honour - which one, and from which city?"
    )
    assert (
        _asked(honour, "The board let the harbour master accept the Silver Anchor awarded by the city of Leith.")
        is None
    )


def test_a_name_the_question_wrote_spelled_out_or_a_span_of_months_names_nothing_new() -> None:
    """ "European Central Bank" is the question's "ECB" spelled out, and "January-February" a span of
    dates: neither is the name a "which …" question asks for."""
    question = "The harbour minutes say remarks by ECB President Alvarez raised the odds of more purchases. In which city did she make the remarks?"
    spelled = "Remarks by European Central Bank (ECB) President Alvarez raised the odds of more harbour purchases."
    reason = _asked(question, spelled)
    assert reason is not None and "names nothing" in reason
    assert _asked(question, "President Alvarez made the remarks on harbour purchases in Sintra.") is None
    strike = "march harbour minutes mention a strike at a major crane maker - which company was it?"
    span = "Output over the January-February period rose after the strike at a major crane maker ended."
    reason = _asked(strike, span)
    assert reason is not None and "names nothing" in reason
    assert _asked(strike, "Output rose after the strike at Contoso Cranes ended.") is None
