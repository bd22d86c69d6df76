"""The extractive answer: which evidence sentences answer the question, and how they read.

A sentence scores by its cosine with the question, plus the share of the question's content
words it carries and whether it holds the kind of answer asked for (a name for "who", a figure
for "how much"). Meaning alone ranks "Voting for the action were …" above "Voting against was
William Poole" for "who voted against?".
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from core.calibration import Calibration
from core.contracts import Citation, Evidence
from core.orchestrator.asked_names import Name
from core.orchestrator.people import is_person
from core.orchestrator.state import Draft
from core.orchestrator.support import content_terms, found_terms, mentions, term_share
from core.text import FIELD, LEADER, MACHINE_ID, split_sentences, stem, words
from core.understanding import answer_kind, holds
from core.understanding.counting import counted, counts
from core.understanding.premise import PROPER_TERMS, premise

Candidate = tuple[int, str]  # (index of the evidence, sentence)

MIN_SENTENCE_WORDS = 4
MAX_SENTENCES = 4
MIN_SENTENCES = 2
TERM_WEIGHT = 0.15
KIND_WEIGHT = 0.1
# Sentences within this much of the best score join the answer.
SCORE_MARGIN = 0.15
REPEAT_OVERLAP = 0.6
# A sentence that restates the question's premise (`restates`: at least this share of its words
# are the premise's) ranks this much lower.
ECHO_WEIGHT = 0.15
ECHO_SHARE = 0.5
MAX_ALSO_CITED = 2


def candidates(evidence: Sequence[Evidence], question: str) -> list[Candidate]:
    """Every readable sentence of the evidence, once per passage: sentences of a few words, the form
    fields whose label the question names, and facts given as evidence ("Pete Buttigieg: Secretary"),
    however short."""
    terms = content_terms(question)
    return [
        (index, clean)
        for index, item in enumerate(evidence)
        for sentence in dict.fromkeys(split_sentences(item.text))
        if len(words(clean := readable(sentence))) >= MIN_SENTENCE_WORDS
        or asked_field(clean, terms)
        or item.kind == "fact"
    ]


def asked_field(sentence: str, terms: list[str]) -> bool:
    """True for a form's field whose label carries a word of the question: "How badly was N5921D
    damaged?" asks for "Aircraft Damage: Substantial". Any other field this short ("Given Name: Owen"
    in a document's metadata) is not a statement that answers anything."""
    return FIELD.match(sentence) is not None and bool(found_terms(terms, sentence.split(":", 1)[0]))


def in_context(evidence: Evidence, sentence: str) -> str:
    """A sentence with its document's title and section, so "Width: 1.303 m" belongs to a product."""
    heading = " / ".join(p for p in (evidence.title, evidence.section) if p)
    return f"{heading}: {sentence}"


def rank(
    question: str, found: Sequence[Candidate], contextual: Sequence[str], cosines: Sequence[float]
) -> list[tuple[float, Candidate]]:
    """The sentences, best answer first: cosine + the words of the question proper carried (not its
    premise's, `premise`) + the kind asked for (+ a figure of what a "how many" question counts,
    `counts`; − a restatement of the premise, `restates`)."""
    kind = answer_kind(question)
    common = frozenset(w for _, sentence in found for w in words(sentence) if w.islower())
    nouns = {stem(w) for w in counted(question)}
    # The premise tells which passage to read, not which of its sentences answers; unless the
    # question proper names no subject of its own ("… an event on July 15. What was it?").
    stated, asked = premise(question)
    terms = content_terms(asked)
    if len(terms) < PROPER_TERMS:
        stated, terms = "", content_terms(question)
    given = [t for t in content_terms(stated) if t not in set(terms)]
    scores = [
        cosine
        + TERM_WEIGHT * share
        + (KIND_WEIGHT if holds(sentence, kind, common) else 0.0)
        + (KIND_WEIGHT if nouns and counts(sentence, nouns) else 0.0)
        - (ECHO_WEIGHT if restates(sentence, given, terms) else 0.0)
        for cosine, share, (_, sentence) in zip(cosines, telling_shares(terms, contextual), found, strict=True)
    ]
    return sorted(zip(scores, found, strict=True), key=lambda pair: -pair[0])


def restates(sentence: str, given: Sequence[str], asked: Sequence[str]) -> bool:
    """True when `sentence` restates the message's premise: most of its content words (`ECHO_SHARE`)
    are words only the premise writes (`given`), and it carries fewer of the question proper's
    (`asked`).

    General case: "output growth had moderated and labor market improvement had slowed. How did the
    FOMC see the economy going forward?" is nearest in meaning and words to the sentence that says
    growth moderated, which the person already knows; the answer is the sentence about the outlook.
    A sentence that carries the premise's words and says more ("the move toward a less
    accommodative stance … in order to sustain and enhance the expansion") may be the answer."""
    if not given:  # no premise: nothing to restate (and no sentence's words to read on every turn)
        return False
    said = found_terms(given, sentence)
    own = content_terms(sentence)
    return bool(own) and len(said) / len(own) >= ECHO_SHARE and len(said) > len(found_terms(asked, sentence))


def telling_shares(terms: Sequence[str], texts: Sequence[str]) -> list[float]:
    """Each text's share of the question's words, each word weighted by how few of the texts carry
    it (BM25's inverse document frequency over the candidates).

    General case: words every candidate carries (the document's title words: "OPM", "fiscal year 2020")
    tell no sentence from another; the rarer words of the question ("actual", "average") do. Words
    no candidate carries weigh nothing: they cannot tell one from another."""
    found = [found_terms(terms, text) for text in texts]
    n = len(texts)
    weights = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t in terms if (df := sum(t in f for f in found))}
    total = sum(weights.values())
    if not total:
        return [term_share(list(terms), text) for text in texts]
    return [sum(weights.get(t, 0.0) for t in f) / total for f in found]


def choose(
    ranked: Sequence[tuple[float, Candidate]], meaning: dict[Candidate, float], calibration: Calibration
) -> tuple[list[Candidate], dict[Candidate, list[int]]]:
    """The 2–4 best sentences near the best score, without repeating one another, and for each the
    other passages that say the same (a statement and the minutes that quote it)."""
    floor = max(calibration.low, ranked[0][0] - SCORE_MARGIN)
    chosen: list[Candidate] = []
    also: dict[Candidate, list[int]] = {}
    for score, candidate in ranked:
        if len(chosen) == MAX_SENTENCES or score < floor:
            break
        # The same sentence in several documents says nothing new the second time: it is cited
        # beside the first instead.
        same = next((c for c in chosen if repeats(candidate[1], c[1])), None)
        if same is None:
            chosen.append(candidate)
        elif candidate[0] != same[0] and len(also.setdefault(same, [])) < MAX_ALSO_CITED:
            also[same].append(candidate[0])
    # A second sentence is added only when it is itself relevant in meaning; one good sentence
    # beats padding with an unrelated one that merely shares words or holds a number.
    fresh = [c for _, c in ranked if c not in chosen and not any(repeats(c[1], s) for _, s in chosen)]
    if len(chosen) < MIN_SENTENCES and fresh and meaning[fresh[0]] >= calibration.medium:
        chosen.append(fresh[0])
    return chosen, also


def echoes(
    chosen: Sequence[Candidate], found: Sequence[Candidate], also: dict[Candidate, list[int]]
) -> dict[Candidate, list[int]]:
    """`also`, with every other passage that repeats a chosen sentence, wherever it ranks (at most
    MAX_ALSO_CITED for each).

    General case: a statement and the minutes that quote it say the same sentence; the answer cites
    both sources of what it says, not only the one whose copy ranked first."""
    out = {c: list(also.get(c, [])) for c in chosen}
    for candidate in chosen:
        cited = out[candidate]
        for other in found:
            if len(cited) == MAX_ALSO_CITED:
                break
            if other[0] != candidate[0] and other[0] not in cited and repeats(other[1], candidate[1]):
                cited.append(other[0])
    return out


def by_part(
    parts: Sequence[str],
    found: Sequence[Candidate],
    contextual: Sequence[str],
    cosines: Sequence[float],
    part_cosines: Sequence[Sequence[float]],
    chosen: Sequence[Candidate],
    following: dict[Candidate, Candidate] | None = None,
) -> list[Candidate]:
    """Each part's best sentence, in the question's order, then the whole question's choice: at most
    MAX_SENTENCES in all, or one per part when the message asks more things than that, and one more
    when a part's sentence reads on into the next (`_read_on`). A part whose best sentence is an
    earlier part's reads on: the sentence after it in the document (`following`).

    General case: "How far did they cut, and who voted against?" asks two things; the sentences
    nearest the whole question can all answer one of them. A part's sentence is ranked as `rank`
    ranks for a question, by the mean of its cosine with the part and with the whole question (a
    bare "…, and when?" means nothing alone), the part's words and the kind of answer it asks.
    When one sentence is nearest to two parts ("OPM ran its first Rapid Improvement Exercise. How
    long was the program, and what did that first exercise focus on?"), it is where the document
    speaks of what both ask, and a document says one thing after another: "The initial exercise
    focused on energy savings" comes next."""
    picked: list[Candidate] = []
    read_on = 0  # sentences read on from an earlier part's: they take no room from the rest
    for part, own in zip(parts, part_cosines, strict=True):
        meaning = [(a + b) / 2 for a, b in zip(own, cosines, strict=True)]
        best = rank(part, found, contextual, meaning)[0][1]
        same = next((c for c in picked if repeats(best[1], c[1])), None)
        if same is None:
            picked.append(best)
        elif (after := (following or {}).get(same)) is not None and after not in picked:
            picked.append(after)
            read_on += 1
    keep = max(MAX_SENTENCES, len(picked) - read_on) + read_on
    rest = [c for c in chosen if not any(repeats(c[1], p[1]) for p in picked)][: keep - len(picked)]
    return _read_on(picked, following or {}, rest) + rest


def _read_on(picked: list[Candidate], following: dict[Candidate, Candidate], rest: list[Candidate]) -> list[Candidate]:
    """The parts' sentences, the first of them whose next sentence in its document (`following`) is
    not in the answer yet (nor said again by one of its sentences) followed by that sentence.

    General case: as for one question (`discourse.windowed`), the sentence nearest a part is often
    followed by the one that holds its detail ("OPM held its annual Acquisition Planning Conference …"
    then "For the first time, the agency held two pre-conference workshops …" for "what was new about
    that year's conference?"). It comes beside the sentences chosen for the whole question, not in
    place of one: those are near the best score and may hold the answer to another part."""
    out = list(picked)
    for pick in picked:
        after = following.get(pick)
        if after is not None and after not in out and not any(repeats(after[1], c[1]) for c in [*out, *rest]):
            out.insert(out.index(pick) + 1, after)
            break
    return out


def of_the_kind(
    question: str,
    ranked: Sequence[tuple[float, Candidate]],
    chosen: list[Candidate],
    meaning: dict[Candidate, float],
    floor: float,
) -> list[Candidate]:
    """The chosen sentences, and when none holds the kind of answer asked for (a person for "who"),
    the best-ranked one that does, if it is relevant in meaning (at least `floor`).

    General case: the sentences nearest in meaning to "who signed the message?" are the message's
    own; the answer is the one that names the signer."""
    kind = answer_kind(question)
    common = frozenset(w for _, (_, sentence) in ranked for w in words(sentence) if w.islower())
    if kind is None or any(holds(s, kind, common) for _, s in chosen):
        return chosen
    holding = [c for _, c in ranked if c not in chosen and holds(c[1], kind, common) and meaning[c] >= floor]
    return chosen + holding[:1]


def role_first(
    question: str, ranked: Sequence[tuple[float, Candidate]], chosen: list[Candidate], evidence: Sequence[Evidence]
) -> list[Candidate]:
    """For a question asking for a person, the best-ranked "Name: Role" fact in the evidence leads the
    answer, when it names a person.

    General case: the facts a who-question brings into the evidence (`core.orchestrator.people`)
    hold the role it asks for ("Beth F. Cobert: Acting Director, signed February 9, 2016" for "who signed
    the director's message?"), but a line that short is far in meaning from the question, and the
    message's own sentences ("Since I became Acting Director …") rank above it."""
    if answer_kind(question) != "person":
        return chosen
    facts = [c for _, c in ranked if evidence[c[0]].kind == "fact" and is_person(c[1].split(":", 1)[0])]
    if not facts or facts[0] in chosen:
        return chosen
    return [facts[0], *chosen][:MAX_SENTENCES]


def naming_first(
    ranked: Sequence[tuple[float, Candidate]], chosen: list[Candidate], ids: Sequence[Name]
) -> list[Candidate]:
    """When no chosen sentence writes the ids the question quotes, the best-ranked one that writes
    them all leads the answer; when none writes them all, each id's best-ranked sentence leads, in
    the question's order, unless a chosen sentence writes that id.

    General case: "measure 2.2.B: what's the target?" is answered by the row of item 2.2.B; in a
    table of like items, another item's row ("2.4.D Student Aid App Downloads … Target") can lie
    nearer in meaning and words. "What do objectives 2.3.3 and 4.3.4 each cover?" asks of two
    entries, which no one sentence holds: an id's sentence already chosen keeps its place among
    the first MAX_SENTENCES."""
    if not ids or any(all(mentions(c[1], n.variants) for n in ids) for c in chosen):
        return chosen
    naming = [c for _, c in ranked if all(mentions(c[1], n.variants) for n in ids)]
    if naming:
        return [naming[0], *(c for c in chosen if c != naming[0])][:MAX_SENTENCES]
    leads: list[Candidate] = []
    for name in ids:
        if any(mentions(c[1], name.variants) for c in chosen):
            continue
        own = next((c for _, c in ranked if mentions(c[1], name.variants)), None)
        if own is not None and own not in leads:
            leads.append(own)
    # A chosen sentence that writes one of the ids keeps its room before those that write none.
    rest = sorted((c for c in chosen if c not in leads), key=lambda c: not any(mentions(c[1], n.variants) for n in ids))
    return [*leads, *rest][: max(MAX_SENTENCES, len(leads))]


def compose(
    chosen: Sequence[Candidate],
    evidence: Sequence[Evidence],
    names: Sequence[Name],
    also: dict[Candidate, list[int]] | None = None,
) -> Draft:
    """The chosen sentences with their `[n]` (and those of passages saying the same), numbered by
    source in order of first use."""
    numbers: dict[int, int] = {}
    parts: list[str] = []
    for candidate in chosen:
        index, sentence = candidate
        first = index not in numbers
        marks = "".join(
            f"[{numbers.setdefault(i, len(numbers) + 1)}]" for i in [index, *(also or {}).get(candidate, [])]
        )
        # "Revenue was EUR 52.1 million" says whose only through its document's title.
        named = not names or any(mentions(sentence, name.variants) for name in names)
        lead = f"{evidence[index].title}: " if first and not named and evidence[index].title else ""
        parts.append(f"{lead}{sentence.rstrip()} {marks}")
    return Draft(text=" ".join(parts), citations=[citation(n, evidence[index]) for index, n in numbers.items()])


def repeats(sentence: str, other: str) -> bool:
    """True when two sentences share most of their words (Jaccard ≥ REPEAT_OVERLAP) and every figure:
    "a mileage rate of EUR 0.30" and "… EUR 0.34" in two versions of a policy are both the answer."""
    a, b = {w.lower() for w in words(sentence)}, {w.lower() for w in words(other)}
    if not a or not b or _figures(a) != _figures(b):
        return False
    return len(a & b) / len(a | b) >= REPEAT_OVERLAP


def _figures(tokens: set[str]) -> set[str]:
    return {t for t in tokens if any(c.isdigit() for c in t)}


def readable(sentence: str) -> str:
    """A Markdown table row `| Width | 1,134 mm |` reads as `Width: 1,134 mm`; a contents entry
    ("Workforce ........ 27", leader dots to a page number) points at an answer and is none ("");
    machine ids a PDF producer left in the text (`MACHINE_ID`) are left out."""
    if LEADER.search(sentence):
        return ""
    if MACHINE_ID.search(sentence):
        sentence = " ".join(MACHINE_ID.sub(" ", sentence).split())
    if sentence.startswith("|"):
        cells = [c.strip() for c in sentence.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            return ""
        return ": ".join(c for c in cells if c)
    return sentence


def citation(n: int, evidence: Evidence) -> Citation:
    """The citation `[n]` of a piece of evidence."""
    return Citation(
        n=n,
        doc_id=evidence.doc_id,
        chunk_id=evidence.chunk_id,
        title=evidence.title,
        date=evidence.date,
        section=evidence.section,
        page=evidence.page,
        url=evidence.url,
        snippet=evidence.snippet,
        relevance=round(evidence.relevance, 4),
    )
