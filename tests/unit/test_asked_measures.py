"""The measures a question asks for and a sentence states: counts, money, shares and dates, the ways
English writes them."""

from __future__ import annotations

from core.orchestrator.measures import dates_it, prices_it, values_it
from core.text import stem
from core.understanding.answers import asks_money
from core.understanding.asked_figures import asks_date, states_date
from core.understanding.counting import counted, counts
from core.understanding.shares import asks_share, states_share


def test_a_sentence_counts_what_a_how_many_question_counts() -> None:
    nouns = {stem(w) for w in counted("How many patent examiners does the office have?")}
    assert nouns == {stem("patent"), stem("examiners")}
    assert counts("The office employs 8,961 patent examiners and 300 clerks.", nouns)
    assert counts("It hired about 1.2 thousand examiners.", nouns)
    assert not counts("The office will give patent examiners 10 more hours a case.", nouns)
    assert not counts("In 2022 examiners searched more prior art.", nouns)
    assert counted("What did the office say about examiners?") == []


def test_what_is_counted_may_open_with_a_determiner_or_an_adjective_the_stop_list_holds() -> None:
    assert counted("How many new cutters will the Coast Guard commission?") == ["cutters"]
    assert counted("how many of the hardware devices were end-of-life?") == ["hardware", "devices"]
    assert counted("By FY 2017, how many of OPM's FISMA systems had MFA?") == ["OPM", "FISMA", "systems"]
    assert counted("how many more was that than in FY21?") == []  # a difference, not a noun
    assert counted("and about how many of them generate hazardous waste?") == []


def test_a_count_asked_in_round_figures_counts_what_follows_the_scale() -> None:
    assert counted("how many billions of dollars moved out of prime funds?") == ["dollars", "moved"]
    assert counted("How many thousands of jobs were added?") == ["jobs"]
    dollars = {stem(w) for w in counted("how many billions of dollars moved out of prime funds?")}
    assert counts("About $120 billion moved out of prime funds.", dollars)
    # Before, "billions" was what was counted, and a date's day counted it by another word.
    assert not counts("Reforms took effect on October 14 and assets shifted out of prime funds.", dollars)


def test_on_what_date_is_answered_by_a_date_said_of_what_it_asks() -> None:
    question = "On what date did OPM issue the Schedule A hiring authority?"
    assert dates_it(question, "ES issued the Schedule A hiring authority on March 20, 2020. [1]", set())
    # Before: any date in the answer was the date asked, here another event's.
    assert not dates_it(
        question, "ES issued the Schedule A hiring authority. [1] OPM scheduled one review in February 2020. [2]", set()
    )
    assert dates_it("On what date?", "The notice is dated June 3, 2021.", set())  # nothing else asked: any date


def test_a_count_is_read_the_ways_english_writes_one() -> None:
    def nouns(question: str) -> set[str]:
        return {stem(w) for w in counted(question)}

    bureaus = nouns("How many bureaus does the ministry oversee?")
    assert counts("The Minister oversees eleven bureaus, each with its own budget.", bureaus)  # number words
    assert not counts("Each of the bureaus has its own budget.", bureaus)
    notices = nouns("How many CRB notices went out?")
    assert counts("The office issued 14 Claims Review Board (CRB) notices in June.", notices)
    assert counts("Number of visitors to the Harbor Museum FY 2019 FY 2020 41,250 12,800", nouns("How many visitors?"))
    assert not counts("The number of visitors fell in FY 2020.", nouns("How many visitors?"))  # a year is no count
    # a score or a percent after "the number of X" defines a measure, counts nothing; a scale counts
    enrolled = nouns("How many enrollment transactions per day?")
    assert not counts("The number of employees enrolled in plans with a score of at least 0.6", enrolled)
    assert not counts("The number of visitors was 4.5 percent higher.", nouns("How many visitors?"))
    assert counts("The number of visitors reached 1.2 million.", nouns("How many visitors?"))
    assert counts("The bank will buy a further $80 billion of bonds.", nouns("How many dollars of bonds?"))
    assert not counts("The bank will buy 80 bonds.", nouns("How many dollars of bonds will it buy?"))
    assert counts("Passenger Injuries: 2 Minor", nouns("How many passengers were hurt?"))  # a form's field
    assert not counts("Passenger Injuries: None", nouns("How many passengers were hurt?"))
    ftes = nouns("How many FTEs did the agency have?")
    assert counts("At year end the agency had 5,016 full-time equivalent employees.", ftes)  # the short form spelled
    assert not counts("At year end the agency had 5,016 contractors on site.", ftes)


def test_money_is_asked_the_ways_english_asks_for_it() -> None:
    assert asks_money("what's the estimated cost of fixing the ten bridges?")  # "what's" is "what is"
    assert asks_money("harbour plan - what does a berth permit cost per vessel?")
    assert asks_money("What did the move cost?")
    assert not asks_money("What did the plan say about cost controls?")
    assert not asks_money("By how much did costs fall?")
    assert not asks_money("what was being added to base prices for higher energy and steel prices?")
    assert asks_money("What was the estimated dollar cost of the storm damage?")
    # "How much did costs go up" asks how far they moved, as "by how much" does: a percentage answers.
    assert not asks_money("how much did weighted average drug costs go up over the previous year?")
    assert not asks_money("How much did health costs rise in 2013?")
    assert asks_money("how much did the agency pay in fees, and did the fee increase?")
    assert asks_money("How much did the move cost?")
    # "How much is the fee" asks money as "what is the fee" does; "how much is the increase" does not.
    assert asks_money("objective 1.5.3: how much is the fee USPTO will charge to extend the response time?")
    assert not asks_money("how much is the increase?")
    # "Which" picks one of a kind: which costs, not how much they were.
    assert not asks_money(
        "a couple of participants flagged trouble in agriculture. which input costs were they pointing to?"
    )
    assert asks_money("what new minimum fee did the agency set?")
    # the unit after the noun asks for it: "… in euros?", "… in percent?"
    assert asks_money("What was the harbour's capital shortfall in euros?") and not asks_money("… in berths?")
    assert asks_share("what were the new toll bands, in percent?") and not asks_share("who was in percent club?")


def test_a_share_is_asked_and_stated_the_ways_english_writes_one() -> None:
    assert asks_share("What percentage of claims were processed within 60 days?")
    assert asks_share("and roughly what share of its leases expire by 2027?")
    assert asks_share("In FY 2017, what percent of calls did the centre handle?")
    assert not asks_share("What was the company's closing share price?")  # a share price is a price
    assert not asks_share("How many claims were processed?")
    for stated in (
        "57.3%",
        "Sixty-eight percent of them",
        "up 23 percentage points",
        "8 out of 25 agencies",
        "ten of the eleven policies",
        "one in five workers",
        "about two-thirds",
        "a majority",
        "a third of the banks",
        "three quarters of respondents",
        "about half.",
        "approximately one fourth of total costs",
        "three-eighths of the sample",
    ):
        assert states_share(stated), stated
    for unstated in (
        "Performance Measure 2.2.2 Percentage of clients",
        "Target 85 Actual 83",
        "in 2022",
        "12 berths",
        "a fourth straight month",  # an ordinal after "a" or "the" is a place in an order
        "the fourth quarter",
    ):
        assert not states_share(unstated), unstated


def test_a_half_or_a_quarter_of_a_year_or_a_step_is_no_share() -> None:
    for period in (
        "showed the second quarter of 2015 as the most likely date for liftoff",
        "growth in the fourth quarter",
        "in the first half of 2015",
        "a quarter-point cut",
        "a half-point increase",
    ):
        assert not states_share(period), period


def test_a_calendar_date_is_asked_by_name_and_stated_as_one() -> None:
    assert asks_date("On what date was the order signed?")
    assert asks_date("through what date were the swap lines extended?")
    assert asks_date("From which day did she serve, per the minutes?")
    assert not asks_date("What date guidance did the dissenters object to?")  # "date" names the guidance
    assert not asks_date("When was the bureau set up?")  # a year, a quarter or an occasion may answer
    for stated in ("signed June 14, 2017.", "effective 1 March.", "as of 2021-01-20", "in March 2020", "on Tuesday"):
        assert states_date(stated), stated
    for unstated in ("The order set up an initiative on hiring.", "in FY 2022", "within six months", "Q3 2023"):
        assert not states_date(unstated), unstated


def test_a_figure_counts_the_phrase_it_opens_not_the_words_after_it() -> None:
    def nouns(question: str) -> set[str]:
        return {stem(w) for w in counted(question)}

    agencies = nouns("How many agencies used the toolkit?")
    assert not counts("OPM shared nine leading practices with agencies, including the toolkit.", agencies)
    assert counts("Twelve agencies used the toolkit in its first year.", agencies)
    assert counts("OPM met with seven of these agencies.", agencies)  # the stop-words that open the phrase
    nominees = nouns("How many certification nominees took the assessment remotely?")
    assert not counts("OPM launched a pilot with three agencies to share hiring certifications.", nominees)
    assert counts("In FY 2022, 412 certification nominees tested remotely.", nominees)
    # An item's number in a list counts nothing.
    executives = nouns("How many departing senior executives completed the survey?")
    assert not counts("It is designed to (1) capture reasons and (2) provide executives with a voice.", executives)
    assert counts("In FY 2017, 388 departing executives completed it.", executives)


def test_what_n_may_ask_which_n_and_the_answer_names_it() -> None:
    # "What limit …" asks which limit as well as its figure: a name of the limit answers it.
    limit = "What limit did the Committee remove from the authorization, and why?"
    assert values_it(limit, "It removed the limit on the amount by which holdings can change.", set())
    assert values_it(limit, "It removed the pass-through limit from the authorization.", set())
    assert not values_it(limit, "The Committee amended the authorization and removed the limit.", set())
    level = "down to what level will EPA model power sector emissions?"
    assert values_it(level, "EPA will model power sector emissions down to the county level.", set())
    assert not values_it(level, "EPA will model power sector emissions down to a level.", set())
    # A magnitude's noun asks for a figure only: "the total number" names no number.
    number = "what's the FY 2026 target number of households in digital inclusion initiatives?"
    assert not values_it(number, "Total number of households in digital inclusion initiatives: Target Actual", set())
    cost = "what federally mandated cost was aggravating state budget shortfalls?"
    assert prices_it(
        cost, "Shortfalls were aggravated by federally mandated costs related to homeland security.", set()
    )
    assert not prices_it(cost, "Shortfalls were aggravated by federally mandated costs.", set())
    # The question's own word with a possessive or a plural names nothing new.
    budget = "What total budget does the plan allocate to the Department?"
    assert not values_it(budget, "The plan informs the Department’s budget formulation and allocation.", set())
    assert not values_it(budget, "The plan informs the departments' budget formulation and allocation.", set())
    assert values_it(budget, "The plan allocates the Department a discretionary budget of its own.", set())


def test_an_auxiliary_ends_the_noun_what_asks() -> None:
    # "at what level can it track budget" asks for a level, not for money; the budget is what is tracked.
    assert not asks_money("at what level can OPM track budget and spending against the plan?")
    assert asks_money("what budget does the plan give IT?")
    assert asks_money("what was the plan's budget for IT?")  # an auxiliary right after "what" opens it


def test_how_much_money_asks_for_money() -> None:
    assert asks_money("how much money did OPM transfer to its IT Working Capital Fund at the end of FY 2022?")
    assert asks_money("how much funding did the program receive?")
    assert not asks_money("how much did the workforce grow?")


def test_a_figure_asked_of_a_premise_by_a_part_with_no_subject_of_its_own_is_said_of_the_premise() -> None:
    # "how big was it" names nothing of its own: the surge before the dash is what its figure is of.
    surge = (
        "the surge of new claims at the start of the calendar year - how big was it, how long did it "
        "stretch, and why couldn't OPM hire extra staff like before?"
    )
    said = "In FY 2015, the surge included approximately 30,000 new claims, stretching from January into February."
    assert values_it(surge, said, set())
    # A question proper that names its own subject still ties the figure to its words.
    tariff = "Members were concerned about the new tariffs on steel. What tariff rate was put on each?"
    assert not values_it(tariff, "A March rate hike of 2 percent was expected by markets.", set())
