"""Follow-ups that say only what changes: "and in FY17?", "ok, and the year after that?", "same
question for the HHS plan", "what about Contoso?", "and what did the staff forecast at that meeting?".

General case: in a thread, people ask the next question by naming only what differs from the last
one — another period, another company or agency, a period counted from the last one — or by pointing
back at the last one's period ("that meeting", "that year"). The question they mean is the last
question with that part replaced, or their own question with the last one's period. These are the
shapes of conversational ellipsis in English, not words of any one collection; everything else a
message says is a new question.
"""

from __future__ import annotations

import re

from core.orchestrator.pointing import (
    BACK_PRONOUN,
    DEMONSTRATIVE,
    IT,
    SAME,
    about_the_reply,
    name_phrases,
    points_back,
)
from core.orchestrator.support import mentions
from core.text import STOPWORDS, stem, without_clitic, words
from core.understanding.dates import without_deadlines
from core.understanding.periods import (
    MONTHS,
    PeriodMention,
    date_phrases,
    occasion_dates,
    occasion_noun,
    occasions,
    period_mentions,
    shifted,
    source_heading,
)

# Acknowledgements that may open a follow-up ("ok, and …", "thanks - what about …").
_ONE_ACK = r"(?:(?:ok(?:ay)?|so|right|thanks|thank\s+you|great|cool|got\s+it|perfect)\b[\s,.!:;-]*)"
_ACK = rf"{_ONE_ACK}*"
_MARKER = re.compile(
    rf"^\s*{_ACK}(?:"
    r"(?:and\s+)?(?:what|how)\s+about"
    r"|same\s+(?:question|thing|again)?\s*(?:for|about|with|in|at)"
    r"|(?:and|also)(?:\s+(?:for|in|at|during))?"
    r")\b[\s,:-]*",
    re.IGNORECASE,
)
# A message that asks a question of its own ("and what was the staff's forecast …"), perhaps after
# phrases set off by a comma or dash that set where to look ("per the minutes of that meeting, what …",
# "the one right after it, 6.2.5 - what …"), a preposition ("by how much …", "to what level …") or an
# adverb that hedges or links it ("roughly how many …", "so what …"); "anyone dissent?" asks with its
# auxiliary left out.
_ASKS = re.compile(
    r"^\s*(?:[^,?]{1,60}(?:,|\s[-\u2013\u2014]+)\s*){0,2}"
    r"(?:(?:by|to|at|in|for|from|on|with|after|before|during|since|until|under)\s+)?"
    r"(?:(?:\w+ly|about|so|then)\s+)?"
    r"(?:who|whom|whose|what|which|when|where|why|how|did|does|do|is|are|was|were|any(?:one|body|thing))\b",
    re.I,
)
# A question of its own that opens by linking itself to the last one ("and how likely did they think
# that was?", "ok, so what did the Committee decide?", "also, who dissented?"): it goes on in the
# last question's period (general case: a coordinating conjunction at a turn's start continues the
# turn before).
_LINKED = re.compile(rf"^\s*{_ONE_ACK}?(?:and|also|so|plus)\b(?!\s+(?:on|forth)\b)", re.IGNORECASE)
# A period counted from the last question's: "the year after that", "the following quarter",
# "a year earlier", "two years before", "the previous year".
_LATER = r"after|later|following|next|subsequent"
_EARLIER = r"before|earlier|previous|prior|preceding"
_UNIT = r"year|quarter"
_OF = r"(?:(?:fiscal|calendar|financial)\s+)?"  # "the following fiscal year"
_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_RELATIVE = re.compile(
    rf"\b(?:(?P<d1>{_LATER}|{_EARLIER})\s+{_OF}(?P<u1>{_UNIT})"
    rf"|(?P<n>{'|'.join(_COUNTS)}|\d)\s+{_OF}(?P<u3>{_UNIT})s?\s+(?P<d3>{_LATER}|{_EARLIER})"
    rf"|{_OF}(?P<u2>{_UNIT})\s+(?P<d2>{_LATER}|{_EARLIER}))\b",
    re.IGNORECASE,
)
# The occasion next to the last one: "the next meeting", "the following statement", "the meeting
# (right) after that one", "the one before that" ("the next fiscal year" is a counted period,
# `_RELATIVE`).
_NEIGHBOUR = re.compile(
    rf"\bthe\s+(?:(?P<d1>{_LATER}|{_EARLIER})\s+(?P<n1>[a-z][\w-]*)"
    rf"|(?P<n2>[a-z][\w-]*)\s+(?:(?:right|just|immediately|directly)\s+)?(?P<d2>after|before)\s+(?:that|this|it)"
    r"(?:\s+one)?)\b",
    re.IGNORECASE,
)
# A message that asks something of its own beside naming the occasion ("who voted against?",
# "anything about hiring?").
_OWN_ASK = re.compile(
    r"\b(?:who|whom|whose|what|which|when|where|why|how|did|does|do|is|are|was|were|has|have|had|any\w*)\b", re.I
)
# Pronouns for a person or body the last question named ("did he dissent again …").
_PERSONAL = re.compile(r"\b(?:he|she|they|him|her|them|it)\b", re.IGNORECASE)
# What may stand beside a counted period in a message that is nothing else: "a year earlier?",
# "the quarter before that?".
_BARE = frozenset({"the", "a", "that", "then", "one"})
# A month named without its year ("at the July meeting", "in March"), after a word that places it.
_CAPITAL_MONTH = "|".join(m.capitalize() for m in MONTHS)
# After "the" a month may be written in lower case ("what about the september one?"): no modal "may"
# or verb "march" follows "the".
_BARE_MONTH = re.compile(
    rf"\b(?:(?:in|at|on|of|during|by|since|the)\s+(?:the\s+)?(?:(?:early|mid|late)[\s-]+)?({_CAPITAL_MONTH})"
    rf"|\bthe\s+(?:(?:early|mid|late)[\s-]+)?((?i:{'|'.join(MONTHS)})))\.?\b"
    r"(?!,?\s+(?:\d{1,2},?\s+)?\d{4})"  # not "July 2017", "June 30, 2005"
)


def _bare_month(text: str, last: list[PeriodMention]) -> str | None:
    """ "July 2017" for "… at the July meeting?" after a question about 2017: in a thread, a month
    named without a year is in the year being talked about."""
    match = _BARE_MONTH.search(text)
    return f"{(match[1] or match[2]).capitalize()} {last[0].year}" if match and last else None


_POSSESSIVE = re.compile(r"^['\u2019]s\b")


def _replace(text: str, start: int, end: int, new: str) -> str:
    return " ".join(f"{text[:start]}{new}{text[end:]}".split())


def _with_names(base: str, names: list[str], mentioned: list[str]) -> str | None:
    """The last question about `names` instead of the names it used: those the documents' facets
    resolved (`mentioned`: "DOL's plan" → "HHS's plan"); else a name of the same family ("SunPeak
    400" → "SunPeak 550"); else its one name, when it has one ("the K-450" → "the BrightRoof")."""
    spans = sorted(
        (m.start(), m.end())
        for old in mentioned
        for m in re.finditer(rf"(?<!\w){re.escape(old)}(?!\w)", base, re.IGNORECASE)
    )
    if not spans:
        own = name_phrases(base)
        heads = {n.split()[0].lower() for n in names}
        spans = [(a, b) for a, b in own if base[a:b].split()[0].lower() in heads and base[a:b] not in names]
        if not spans and len(own) == 1:
            spans = own
    if not spans:
        return None
    text = base
    for start, end in reversed(spans[1:]):
        text = text[:start] + _POSSESSIVE.sub("", text[end:], count=1)
    first, last = spans[0]
    return " ".join(f"{text[:first]}{' '.join(names)}{text[last:]}".split())


def follow_up(text: str, last_question: str, mentioned: list[str], last_answer: str = "") -> str | None:
    """The question a follow-up asks, written out from the thread's `last_question` (whose names the
    documents know were written as `mentioned`; `last_answer` is the reply it got), or None when the
    message is a question of its own.

    - another period: "and in FY17?" after "… in FY 2016?" is the same question for FY 2017;
    - a period counted from the last one: "the year after that", "the previous quarter";
    - another name: "same question for the HHS plan" after "… in DOL's plan?";
    - a question of its own pointing back at the last period: "… at that meeting?" reads that meeting;
    - a question of its own, with no period, about someone or something the last reply named: it
      continues the last question's period (`about_the_reply`);
    - a question of its own that opens with "and", "so" or "also" (`_LINKED`): it goes on in the last
      question's scope, its names and date (`_in_the_last_scope`);
    - a question of its own, with no period, after a message that asked nothing but said where to look
      ("I'm reading the minutes of the August 22, 1995 meeting.", `sets_scope`): it is asked there.
    """
    marker = _MARKER.match(text)
    rest = text[marker.end() :] if marker else text
    # A deadline or a horizon ("through the end of 2011") is no period the follow-up asks about.
    own, last = period_mentions(without_deadlines(rest)), period_mentions(last_question)
    relative = _RELATIVE.search(rest)
    if last and not relative and (neighbour := _neighbour(rest, last_question, last)):
        return neighbour
    new = _counted(relative, last) if relative and last and not own else None
    moved = _replace(last_question, last[0].start, last[0].end, new) if new else None
    if _ASKS.match(rest) and len([w for w in words(rest) if w.lower() not in STOPWORDS]) >= 2:
        # A question of its own: it borrows the period it points back at or counts from it. One
        # that only points back at the last subject is the last question of its period ("what was
        # it two fiscal years later?", "what was it in FY 2017?").
        if last and BACK_PRONOUN.search(rest) and not _content(rest, own):
            return moved or (_with_periods(last_question, last, own) if own else None)
        if last and own and _repeats(rest, own, last_question):
            return _with_periods(last_question, last, own)
        if new:
            asked = re.sub(r"(?:\s+(?:the|a))?\s+(?=[?.!])", "", " ".join(_RELATIVE.sub(" ", rest).split()))
            # "it" stands for what the last question named ("did it go up the following year?"
            # after "What was OPM's Collaborative Management Score in FY 2018?").
            named = [last_question[a:b] for a, b in name_phrases(last_question)] if BACK_PRONOUN.search(rest) else []
            return f"{asked} ({', '.join(dict.fromkeys([*named, new]))})"
        # "In those same minutes, what curtailed production in April?": the documents pointed back at
        # are the last question's; a month without a year is what they write about.
        if not own and SAME.search(rest):
            return f"{rest.strip()} ({source_heading(last_question) or ' '.join(p.written for p in last)})"
        month = None if own else _bare_month(rest, last)
        if month:
            return f"{rest.strip()} ({month})"
        if own and last and (pointed := _at_the_occasion(rest, last_question, last)):
            return pointed
        if not last and not own and BACK_PRONOUN.search(rest):
            # No period to keep: the pronoun stands for what the last question named ("what else does
            # it commit to?" after "… what is NARA doing with underserved communities …?"), in the
            # words the documents know it by ("nara", written in lower case).
            named = [last_question[a:b] for a, b in name_phrases(last_question)] + mentioned
            return f"{rest.strip()} ({', '.join(dict.fromkeys(named))})" if named else None
        if own or not (last or mentioned):
            return None
        if not (
            _LINKED.match(text)
            or sets_scope(last_question)
            or points_back(rest, last_question, last_answer)
            or about_the_reply(rest, last_question, last_answer)
        ):
            return None
        return _in_the_last_scope(rest, last_question, mentioned, last_answer)
    if marker is None and not (relative and set(words(_RELATIVE.sub(" ", rest).lower())) <= _BARE):
        return None  # neither "and …", "what about …" nor only a period counted from the last one
    if relative and last and not own:
        return moved
    if own:
        return _with_periods(last_question, last, own) if last else None
    if last and (month := _bare_month(rest, last)):  # "and at the one in late May?"
        if dated := next(iter(occasion_dates(last_question)), None):  # "September 16, 2003", whole
            return " ".join(last_question.replace(dated, month, 1).split())
        return _replace(last_question, last[0].start, last[0].end, month)
    names = [rest[a:b] for a, b in name_phrases(rest)]
    names = [n for n in names if n.lower() not in last_question.lower()]
    if names:
        return _with_names(last_question, names, mentioned)
    return _in_scope(rest, last_question, mentioned)


def _neighbour(rest: str, last_question: str, last: list[PeriodMention]) -> str | None:
    """The follow-up about the occasion next to the last question's ("did he dissent again at the
    next meeting?" after "… at the September 2006 FOMC meeting?"), with that occasion named by its
    neighbour ("at the meeting after September 2006"; the planner finds its date among the documents',
    `periods.nearest_occasion`). A message that asks nothing of its own ("and at the one after
    that?", "and in the statement from the next meeting?") is the last question about that occasion,
    named by the last question's noun ("statement"); one that asks its own question keeps it, with
    the names the last question gave for its pronouns ("he", "they")."""
    match = next((m for m in _NEIGHBOUR.finditer(rest) if occasion_noun(m["n1"] or m["n2"])), None)
    if match is None or _one_of_its_own(rest[: match.start()], match, last_question):
        return None
    noun = (match["n1"] or match["n2"]).lower()
    direction = "before" if re.fullmatch(_EARLIER, match["d1"] or match["d2"], re.IGNORECASE) else "after"
    # The occasion's date ("… for July 1995 cited in the minutes of the August 1995 meeting"), else the first.
    spans, dated = date_phrases(last_question), set(occasion_dates(last_question))
    first = spans[0] if spans else (last[0].start, last[0].end)
    start, end = next((s for s in spans if last_question[s[0] : s[1]] in dated), first)
    back = last_question[start:end]
    if _OWN_ASK.search(rest):
        own = _replace(rest, match.start(), match.end(), f"the {noun} {direction} {back}")
        pronoun = _PERSONAL.search(own)
        named = [last_question[a:b] for a, b in name_phrases(last_question)] if pronoun else []
        if pronoun is None or not named:
            return own
        # Beside the clause the pronoun stands in ("did he …?"), not a part of its own after the last "?".
        mark = own.find("?", pronoun.start())
        cut = len(own) if mark < 0 else mark
        return f"{own[:cut]} ({', '.join(named)}){own[cut:]}"
    before = re.sub(r"\b(?:the|its|their)\s*$", "", last_question[:start], flags=re.IGNORECASE)
    after = last_question[end:]
    # "at the June 2013 FOMC meeting": the names after the date, then the occasion's noun.
    if (noun_after := re.match(r"(?:\s+[A-Z][\w-]*)*\s+([a-z][\w-]*)\b", after)) and occasion_noun(noun_after[1]):
        noun, after = noun_after[1].lower(), after[noun_after.end() :]
    return " ".join(f"{before}the {noun} {direction} {back}{after}".split())


def _one_of_its_own(before: str, match: re.Match[str], last_question: str) -> bool:
    """True when "one" stands for a noun the message itself pointed at before it, not for the last
    question's occasion: "over that intermeeting period, versus the previous one" (general case: the
    pro-form "one" takes the nearest noun phrase before it; "that meeting and the one before" still
    counts from the meeting)."""
    pointed = [m[1].lower() for m in DEMONSTRATIVE.finditer(before)]
    one = (match["n1"] or match["n2"]).lower() == "one"
    return one and bool(pointed) and pointed[-1] not in occasions(last_question)


def sets_scope(message: str) -> bool:
    """True when a message asks nothing: no question mark and no question word or auxiliary opening it
    (`_ASKS`).

    General case: in a thread people first say where they are reading ("Let's go to the minutes of the
    June 2011 meeting, the part on financial stability.", "opm fy16 apr - the hiring section") and
    then ask; the question is about what they opened, not about every document."""
    return "?" not in message and _ASKS.match(message) is None


def _in_the_last_scope(rest: str, last_question: str, mentioned: list[str], last_answer: str) -> str | None:
    """A question of its own that goes on in the last one's scope: with the names the documents knew in the last
    question ("what baseline is that compared to? (EPA)"), unless it names a subject of its own that neither the
    last question nor its reply wrote ("and when was DHS set up?" after a question about the State Department),
    and the date the last question was about: that of its occasion or of the source it was headed by ("in the
    minutes of the January 27-28, 2004 meeting", "opm fy15 apr: between FY 2007 and FY 2014, …",
    `occasion_dates`), else its one date written whole ("at its emergency move on January 21, 2008"), else every
    period it named; a deadline ("by 2030") is what the last question asked about, not when
    (`without_deadlines`)."""
    timed = without_deadlines(last_question)
    whole = [timed[a:b] for a, b in date_phrases(timed)]
    occasion = occasion_dates(timed)
    periods = " ".join(p.written for p in period_mentions(timed))
    when = occasion[0] if occasion else whole[0] if len(whole) == 1 else periods
    said = f"{last_question} {last_answer}"
    other = any(not mentions(said, [rest[a:b]]) for a, b in name_phrases(rest))
    scope = [m for m in mentioned if not other and not mentions(rest, [m])] + ([when] if when else [])
    if not other and IT.search(rest) and _asks_a_thing(timed):
        scope += _topic(timed, [*scope, rest])
    return f"{rest.strip()} ({', '.join(dict.fromkeys(scope))})" if scope else None


# "What panel …", "which program …", "what's the target …", "what is the rate …": a thing asked by its noun.
_WHAT_NOUN = re.compile(r"\b(?:what|which)(?:['\u2019]s|\s+(?:is|was|are|were))?\s+(?:the\s+)?([a-z][\w-]*)", re.I)


def _asks_a_thing(question: str) -> bool:
    """True when the question asks for a thing by its noun ("what panel did OPM host …?", "which
    program …?"), not for what someone did ("what did the Fed decide …?"): "it" in the next message is
    that thing."""
    return any(m[1].lower() not in STOPWORDS for m in _WHAT_NOUN.finditer(question))


def _topic(last_question: str, said: list[str]) -> list[str]:
    """The words of the last question that say what it asked about, besides its names, its periods and
    what the follow-up already `said`.

    General case: "how many people attended it, and where did the recording go up?" after "what panel
    did OPM host on benefits for LGBT federal employees?": "it" is the panel the last question asked
    for (`_asks_a_thing`), and the passage that answers says "panel", "benefits" and "LGBT", none of
    which the follow-up writes. After "what did the Fed decide …?", "who voted against it?" finds the
    vote by its own words; the last question's ("decide", "move") are no words its answer must carry."""
    known = {w.lower() for text in said for w in words(text)}
    dated = {w.lower() for p in period_mentions(last_question) for w in words(p.written)}
    bare = dict.fromkeys(without_clitic(w) for w in words(last_question))
    return [w for w in bare if w.lower() not in STOPWORDS | known | dated and not any(c.isdigit() for c in w)]


def _at_the_occasion(rest: str, last_question: str, last: list[PeriodMention]) -> str | None:
    """ "in the minutes of the December 13, 2023 meeting, who was elected chair for 2024?" for "… of
    that meeting, who …" after a question dating that meeting: "that meeting" is the last question's,
    whatever other period the message names (what the meeting looked ahead to)."""
    nouns = "|".join(map(re.escape, occasions(last_question)))
    if not nouns:
        return None
    back = next(iter(occasion_dates(last_question)), " ".join(p.written for p in last))
    pointed = re.sub(rf"\b(?:that|the\s+same)\s+({nouns})\b", rf"the {back} \1", rest, count=1, flags=re.I)
    return pointed.strip() if pointed != rest else None


def _with_periods(last_question: str, last: list[PeriodMention], own: list[PeriodMention]) -> str:
    """The last question with the follow-up's own periods in place of its periods."""
    question = last_question
    for period in reversed(last[1:]):
        question = _replace(question, period.start, period.end, "")
    return _replace(question, last[0].start, last[0].end, " ".join(p.written for p in own))


# "ones" stands for the noun the last question asked about ("which ones did it co-lead …").
_PRO_FORM = re.compile(r"\b(?:ones|one)\b", re.IGNORECASE)


def _repeats(rest: str, own: list[PeriodMention], last_question: str) -> bool:
    """True when a follow-up names its own period and otherwise only repeats the last question's
    words ("and which ones did it co-lead per the FY 2018 report?" after "Which goals did OPM co-lead
    according to its FY 2014 report?"): the last question, in that period. General case: the
    ellipsis of everything but what changes, with "ones" for the noun asked about."""
    content = [w for w in _content(rest, own) if not _PRO_FORM.fullmatch(w)]
    asked = {stem(w) for w in words(last_question)}
    return bool(content) and all(stem(w) in asked for w in content)


def _content(rest: str, own: list[PeriodMention]) -> list[str]:
    """The words of a follow-up beyond stop-words, pronouns and the periods it names or counts."""
    for period in reversed(own):
        rest = rest[: period.start] + " " + rest[period.end :]
    bare = BACK_PRONOUN.sub(" ", _RELATIVE.sub(" ", rest))
    return [w for w in words(bare) if w.lower() not in STOPWORDS]


def _counted(relative: re.Match[str], last: list[PeriodMention]) -> str | None:
    """The last question's first period moved as `relative` counts ("two fiscal years later")."""
    direction = next(d for d in (relative["d1"], relative["d2"], relative["d3"]) if d)
    unit = next(u for u in (relative["u1"], relative["u2"], relative["u3"]) if u).lower()
    count = relative["n"].lower() if relative["n"] else "a"
    step = (_COUNTS[count] if count in _COUNTS else int(count)) * (
        1 if re.fullmatch(_LATER, direction, re.IGNORECASE) else -1
    )
    return shifted(last[0], unit, step)


def _in_scope(rest: str, last_question: str, mentioned: list[str]) -> str | None:
    """ "What about real gross output?" after a question about the Commerce Department's 2022-2026
    plan asks about real gross output in that plan: the new subject, with the names and periods the
    last question was scoped by. None when the message names no subject of its own ("and?", "what
    about it?"), counts from the last one ("the next meeting": not the same scope) or the last
    question had no scope."""
    subject = rest.strip(" ?.!")
    content = [w for w in words(subject) if w.lower() not in STOPWORDS]
    scope = [*mentioned, *(p.written for p in period_mentions(last_question))]
    counted = re.search(rf"\b(?:{_LATER}|{_EARLIER})\b", subject, re.IGNORECASE)  # "the next meeting"
    if not content or not scope or counted or BACK_PRONOUN.fullmatch(subject):
        return None
    return f"{subject} ({', '.join(dict.fromkeys(scope))})"
