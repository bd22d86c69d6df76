"""Steering by name: a question that names a company, agency, product or period reads the documents about it.

Documents that differ only by who and when (quarterly reports, yearly policies, per-customer
contracts) are the normal case. Each document describes itself at ingestion (`core.ingest.facets`):
whom it is about, in every form it uses (a name, its acronym, its file name's code), and which
period it covers, in its own labels. A question is resolved against that vocabulary: the forms it
contains pick documents, and the periods it names pick among them by label ("Q3 2022" finds the
filing labelled 2022 Q3 whatever months that quarter spans). A form most documents carry is a
topic ("FOMC" in the minutes), not an entity, and steers nothing. A period that none of the named
documents carries is said, with the periods they do carry, instead of answered from another.
Documents ingested before facets existed are steered by their titles, as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from pydantic import Field

from core.contracts import Contract, SearchFilters
from core.knowledge import DocumentFacets, DocumentRecord
from core.orchestrator.asked_names import Name, names_in
from core.orchestrator.period_labels import asked_periods, covered, each_period, labelled_in
from core.orchestrator.support import mentions, objects, other_order, with_heads
from core.orchestrator.unknown import no_document_mentions, unknown_names
from core.ports import Embeddings, SearchBackend
from core.text import ACRONYM, STOPWORDS, contracts, stem, words
from core.understanding import is_date_word
from core.understanding.abbreviations import is_name, most_used
from core.understanding.periods import is_period_phrase, source_heading

NAME_SEARCH_HITS = 50
TOPIC_SEARCH_HITS = 5000
"""Passages read to tell a name from a topic: enough that the documents which only write the name
show among them (440 of the 468 FOMC documents for "FOMC"; 0.4 s there, once per name while the
vocabulary is cached)."""
STEERING_SHARE = 0.5
ABOUT_RATIO = 12.0
"""How many times as many passages per document a name's own documents write as those that mention
it (`is_topic`). Measured on the two real collections: names written throughout (FOMC 2.5, SOMA 2.9,
"Federal Reserve Bank of New York" 4.9, "U.S." 6.4, "Tribal" 8.6) against agencies in their own
plans (NOAA 18.7, GSA 20.1, DHS 55.2, USAID 113); the threshold sits between the two groups."""
WRITERS_SEEN = 0.5
"""A name's writers are known when fewer than this share of its search hits write it: the rest of the
hits are passages near in meaning, so every passage that writes the name was among them."""


class Steering(Contract):
    """The names a question steers by and the documents whose titles carry them."""

    names: list[Name] = Field(default_factory=list)
    doc_ids: list[str] | None = None
    titled: list[str] = Field(default_factory=list)
    resolved: list[str] = Field(default_factory=list)  # "OPM → 9 documents", "FY 2018 → 1 document"
    mentions: list[str] = Field(default_factory=list)  # the question's own words for those names ("DOL")
    missing: str | None = None  # a period the named documents lack (and what they cover), or a name none writes
    period_resolved: bool = False  # the period asked was found by the documents' own labels, not by dates
    period_covered: bool = False  # a period label of the documents read holds the period asked
    by_facets: bool = False  # the documents were chosen by their facets: recovery keeps them
    by_kind: bool = False  # … by the kind the question names: another period's are no answer
    kind_words: dict[str, str] = Field(default_factory=dict)  # the question's words for that kind ("stmt")
    writers: dict[str, list[str]] = Field(default_factory=dict)
    """Acronyms no facet or title carries that only a few passages write, with the documents that do:
    an answer about "NASA's goals" must cite a passage that mentions NASA, not another agency's plan."""
    periods: dict[str, str] = Field(default_factory=dict)
    """When the question names no period and its names chose documents of several: each document's
    periods in its own words, oldest first, so that the answer can say which one it is from."""

    def required(self) -> list[Name]:
        """What cited evidence must mention: names some title carries, names only a few passages
        write, and every quarter named."""
        return [n for n in self.names if n.text in self.titled or n.text in self.writers or n.period]


def _acronym(text: str) -> bool:
    """One word in capitals ("NASA", "VA"): how an organisation is named in passing. Longer phrases
    ("Acting Secretary") are matched too loosely by their words to require them in a passage."""
    return ACRONYM.fullmatch(text) is not None


async def steer(
    question: str,
    backend: SearchBackend,
    filters: SearchFilters,
    vector: Embeddings,
    vocabulary: Vocabulary | None = None,
    common: Callable[[Sequence[str]], set[str]] | None = None,
) -> Steering:
    """The documents the question names: by their facets, or by their titles when they have none.

    `common`: the words a general vocabulary holds whole (the embedding model's tokenizer), which a
    question may capitalise without naming anything ("the Handbook")."""
    if vocabulary:
        resolved = resolve(question, vocabulary, await _topics(question, vocabulary, backend, filters, vector))
        # Names no facet carries (a short report's "Contoso") are still looked for in titles; one no
        # document writes at all ("Pell Grant" beside "the Education Department") is said.
        rest = [n for n in resolved.names if not n.period and n.text not in resolved.titled]
        if not rest:
            return resolved
        if not resolved.missing:
            unknown = await unknown_names(rest, backend, filters, vector, common)
            if unknown:
                return resolved.model_copy(update={"missing": no_document_mentions(unknown), "doc_ids": None})
        by_title = await _by_titles(rest, backend, filters, vector)
        resolved = resolved.model_copy(update={"writers": by_title.writers})
        if not by_title.doc_ids:
            return resolved
        chosen = set(by_title.doc_ids)
        if resolved.doc_ids:
            chosen = chosen & set(resolved.doc_ids) or set(resolved.doc_ids)
        return resolved.model_copy(update={"doc_ids": sorted(chosen), "titled": [*resolved.titled, *by_title.titled]})
    names = names_in(question)
    if not names:
        return Steering()
    steering = await _by_titles(names, backend, filters, vector)
    if not steering.titled:
        unknown = await unknown_names(names, backend, filters, vector, common)
        if unknown:
            return steering.model_copy(update={"missing": no_document_mentions(unknown)})
    return steering


async def _by_titles(names: list[Name], backend: SearchBackend, filters: SearchFilters, vector: Embeddings) -> Steering:
    """The documents whose titles carry the names (all of those names that any title carries)."""
    per_name: dict[str, set[str]] = {}
    writers: dict[str, list[str]] = {}
    for name in names:
        hits = await backend.search_text(" ".join([name.text, *name.variants]), filters, NAME_SEARCH_HITS, vector)
        titled = {hit.segment.doc_id for hit in hits if mentions(hit.segment.title, name.variants)}
        writing = [hit for hit in hits if mentions(f"{hit.segment.title} {hit.segment.text}", name.variants)]
        named = {hit.segment.doc_id for hit in writing}
        # A name steers when the documents that use it are mostly the ones titled with it (a company's
        # reports); one most documents use in their text ("FOMC" in the minutes) is a topic, not an entity.
        if titled and len(titled) >= STEERING_SHARE * len(named):
            per_name[name.text] = titled
        elif named and _acronym(name.text) and len(writing) <= WRITERS_SEEN * NAME_SEARCH_HITS:
            # The search ran out of passages that write the name: these documents are all that do.
            writers[name.text] = sorted(named)
    if not per_name:
        return Steering(names=names, writers=writers)
    periods = {n.text for n in names if n.period}
    entity_sets = [ids for text, ids in per_name.items() if text not in periods]
    period_sets = [ids for text, ids in per_name.items() if text in periods]
    # "Northwind or Contoso": no document carries both names, so either one's documents are read.
    entity_docs = (set.intersection(*entity_sets) or set.union(*entity_sets)) if entity_sets else set()
    doc_ids = entity_docs
    if period_sets:
        in_period = set.intersection(*period_sets)
        doc_ids = (entity_docs & in_period if entity_docs else in_period) or entity_docs
    return Steering(names=names, doc_ids=sorted(doc_ids) or None, titled=sorted(per_name), writers=writers)


class Vocabulary:
    """The names and periods a collection's documents carry (their facets), to resolve questions against."""

    def __init__(self, documents: list[DocumentRecord]) -> None:
        self.facets: dict[str, DocumentFacets] = {d.doc_id: d.facets for d in documents if d.facets is not None}
        self.topics: dict[str, bool] = {}  # a form's topic test, once per vocabulary
        self.total = len(documents)
        self.dated = {d.doc_id: d.date for d in documents if d.date is not None}  # the occasions' dates
        self.dates = sorted(set(self.dated.values()))
        self.kinds: dict[str, set[str]] = {}  # the kinds a collection's index gives, with their documents
        for doc_id, facets in self.facets.items():
            if facets.kind and facets.kind_from == "index":
                self.kinds.setdefault(facets.kind, set()).add(doc_id)
        forms: dict[str, set[str]] = {}
        self.names: dict[str, str] = {}
        strong: set[str] = set()
        # Forms the documents write in capitals ("DHS" for "Department of Homeland Security"), found in
        # any case unless they are words too ("US" is "us", "APR" is "apr").
        entities = [e for f in self.facets.values() for e in f.entities]
        capitals = {a.lower() for e in entities for a in [e.name, *e.aliases] if a.isupper()}
        self.acronyms = {a for a in capitals if a not in STOPWORDS and not is_date_word(a)}
        owned = {e.name for f in self.facets.values() for e in f.entities if mentions(f.title, e.forms())}
        for doc_id, facets in self.facets.items():
            for entity in facets.entities:
                named = bool(entity.aliases) or entity.source == "file name" or len(entity.name.split()) > 1
                for form in with_heads(entity.forms()) + (objects(entity.forms()) if entity.name in owned else []):
                    forms.setdefault(form, set()).add(doc_id)
                    self.names.setdefault(form, entity.name)
                    if named or form.isupper() or entity.name.isupper():
                        strong.add(form)
            # Ids a cover lists are not a filter: other documents name them (`naming_all` narrows).
        # Abbreviations to spell out in questions: terms ("IOER"). A name ("OPM", written "Office of
        # Personnel Management") is steering's, and its documents write it; a period ("FY") is the date window's.
        defined = most_used(f.abbreviations or {} for f in self.facets.values())
        terms = {k: d for k, d in defined.items() if k.lower() not in self.names and not is_name(d)}
        self.abbreviations = {k: d.lower() for k, d in terms.items() if not is_period_phrase(d)}
        # A form most documents carry is what the collection is about, not whom one document is about.
        shared = {f: ids for f, ids in forms.items() if len(ids) <= STEERING_SHARE * self.total}
        # A one-word name a document writes often ("Apple", "Plan") is a name only where the documents
        # it picks are one, or are also picked together by a defined name or a file name's code ("AAPL"):
        # a word several unrelated documents capitalise is a word.
        self.forms = {
            f: ids
            for f, ids in shared.items()
            if f in strong or len(ids) == 1 or any(ids <= shared[g] for g in strong if g in shared and g != f)
        }

    def __bool__(self) -> bool:
        return bool(self.facets)


def _tokens(text: str) -> list[str]:
    """Words without a possessive ("OPM's" → "OPM")."""
    return [re.sub(r"['’]s$", "", w) for w in words(text)]


async def _topics(
    question: str, vocabulary: Vocabulary, backend: SearchBackend, filters: SearchFilters, vector: Embeddings
) -> set[str]:
    """The question's names that are topics of the collection: most documents that write them do not
    carry them as a facet ("Federal Open Market Committee", defined in some minutes, written in all)."""
    topics: set[str] = set()
    for _, _, form in _spans(question, vocabulary):
        if form in vocabulary.topics:
            if vocabulary.topics[form]:
                topics.add(form)
            continue
        forms = sorted(_forms_of(form, vocabulary), key=len, reverse=True)
        hits = await backend.search_text(" ".join(forms), filters, TOPIC_SEARCH_HITS, vector)
        writing = Counter(h.segment.doc_id for h in hits if mentions(f"{h.segment.title} {h.segment.text}", forms))
        carried = set().union(*(vocabulary.forms.get(f, set()) for f in forms))
        vocabulary.topics[form] = is_topic(writing, carried)
        if vocabulary.topics[form]:
            topics.add(form)
    return topics


def is_topic(writing: Mapping[str, int], carried: set[str]) -> bool:
    """True for a name the collection writes throughout rather than a name some documents are about.

    `writing`: how many passages of each document write the name; `carried`: the documents that
    carry it as a facet. A topic: most documents that write it do not carry it, and those that carry
    it write it hardly more often than the rest ("Federal Open Market Committee" is defined in some
    minutes and written in every statement: 2.5 times as many passages each). A document about a
    name writes it on page after page; others mention it in passing ("EPA" in 412 passages of EPA's
    plan, in one or two of two other reports): such a name steers to its documents.
    """
    if not writing:
        return False
    carriers = [n for doc, n in writing.items() if doc in carried]
    others = [n for doc, n in writing.items() if doc not in carried]
    if len(carriers) >= STEERING_SHARE * len(writing):
        return False
    if not carriers:
        return True
    return sum(carriers) / len(carriers) < ABOUT_RATIO * sum(others) / len(others)


def _spans(question: str, vocabulary: Vocabulary, topics: set[str] | None = None) -> list[tuple[int, int, str]]:
    """Where the question writes a form of a facet name, longest first, overlaps dropped. A one-word
    form that is not all capitals must be written capitalised ("Apple", not "apple pie"); acronyms
    (`Vocabulary.acronyms`, an entity's short name too: "dhs" for the Department of Homeland
    Security, unless it is a stop-word or a date word: "us", "apr") and longer names match in any
    case ("opm", "office of personnel management"). A name "Y of X" is also found written "X Y"
    (`support.other_order`: "the Labor Department")."""
    tokens = _tokens(question)
    lowered = [t.lower() for t in tokens]
    found: list[tuple[int, int, str]] = []
    for form in vocabulary.forms:
        if topics and form in topics:
            continue
        single = len(_tokens(form)) == 1 and not vocabulary.names[form].isupper() and form not in vocabulary.acronyms
        for written in {form, other_order(form)} if " of " in form else {form}:
            parts = [t.lower() for t in _tokens(written)]
            for start in range(len(lowered) - len(parts) + 1) if parts else ():
                if lowered[start : start + len(parts)] == parts and (not single or tokens[start][:1].isupper()):
                    found.append((start, start + len(parts), form))
    found.sort(key=lambda span: (span[0] - span[1], span[0]))
    taken: set[int] = set()
    kept: list[tuple[int, int, str]] = []
    for start, end, form in found:
        if not taken & set(range(start, end)):
            kept.append((start, end, form))
            taken.update(range(start, end))
    return kept


def resolve(question: str, vocabulary: Vocabulary, topics: set[str] | None = None) -> Steering:
    """The documents a question names by whom and by when, against the collection's own facets
    (`topics`: names the collection writes everywhere, which pick nothing)."""
    names = names_in(question)
    spans = _spans(question, vocabulary, topics)
    resolved: list[str] = []
    entity_sets: list[set[str]] = []
    for _, _, form in spans:
        ids = vocabulary.forms[form]
        entity_sets.append(ids)
        resolved.append(f"{vocabulary.names[form]} → {len(ids)} document{'s' if len(ids) != 1 else ''}")
    # "Northwind or Contoso": no document carries both names, so either one's documents are read.
    entity_docs = (set.intersection(*entity_sets) or set.union(*entity_sets)) if entity_sets else set()
    candidates = entity_docs or set(vocabulary.facets)
    # A deadline ("by Sept 2026") picks among a named organisation's documents the one whose period
    # holds it ("OPM … by the end of FY 2016": that year's report); alone it picks none, as any
    # plan may set a target for that year.
    # A message headed by its source ("opm fy15 apr - … calendar 2016?") names the document's period
    # in the heading: the question's other dates are what it writes about.
    heading = source_heading(question)
    asked = asked_periods(heading) if heading else asked_periods(question, deadlines=bool(entity_docs))
    doc_ids: set[str] = set(entity_docs)
    missing: str | None = None
    period_resolved = False
    dated = [d for d in candidates if vocabulary.facets[d].periods]
    period_covered = False
    if asked and dated:
        labelled = any(a.labelled for a in asked)
        in_period, best = labelled_in(dated, asked, vocabulary.facets)
        # "USAID's 2026 target": a bare year picks no document, but the joint plan for FY 2022–2026
        # holds it, so the year is not after the documents (`evidence.after_newest`).
        period_covered = best > 0
        if not in_period and len(entity_sets) > 1:
            # "OPM's FEVS score for FY 2016": the report of FY 2016 is OPM's though it does not define
            # FEVS. Names that together leave no document of the period narrow no further than the
            # period; those of the period carrying the most of the names are read.
            named = [d for d in set.union(*entity_sets) if vocabulary.facets[d].periods]
            in_period, best = labelled_in(named, asked, vocabulary.facets)
            most = max((sum(d in ids for ids in entity_sets) for d in in_period), default=0)
            in_period = {d for d in in_period if sum(d in ids for ids in entity_sets) == most}
        labels = ", ".join(a.label for a in asked)
        if in_period:
            doc_ids = in_period
            period_resolved = True
            resolved.append(f"{labels} → {len(in_period)} document{'s' if len(in_period) != 1 else ''}")
        elif entity_docs and labelled and best == 0:
            about = " and ".join(dict.fromkeys(vocabulary.names[f] for _, _, f in spans))
            periods = [p for d in dated for p in vocabulary.facets[d].periods]
            missing = f"no document about {about} covers {labels}; they cover {covered(periods)}"
    # A name the chosen documents do not carry (dropped to reach the period) is not what they are about.
    carried = [f for _, _, f in spans if not doc_ids or vocabulary.forms[f] & doc_ids]
    entities = [Name(text=vocabulary.names[f], variants=sorted(_forms_of(f, vocabulary))) for f in carried]
    known = {form for _, _, f in spans for form in _forms_of(f, vocabulary)}
    # A period resolved by label is met by the documents chosen; it is not a phrase their text must repeat.
    rest = [n for n in names if n.text.lower() not in known and not (n.period and period_resolved)]
    tokens = _tokens(question)
    each = {} if asked else each_period(doc_ids, vocabulary.facets)  # of the documents the names chose
    chosen_kind: dict[str, str] = {}
    if (of_kind := named_kind(question, vocabulary)) and (doc_ids & of_kind if doc_ids else True):
        doc_ids = doc_ids & of_kind if doc_ids else of_kind
        chosen_kind = kind_words(question, vocabulary)
        kinds = " or ".join(sorted({vocabulary.facets[d].kind or "" for d in of_kind}))
        resolved.append(f"{kinds} → {len(doc_ids)} documents")
    return Steering(
        names=[*entities, *rest],
        periods=each,
        doc_ids=sorted(doc_ids) or None,
        titled=[n.text for n in entities],
        resolved=list(dict.fromkeys(resolved)),
        mentions=list(dict.fromkeys(" ".join(tokens[start:end]) for start, end, _ in spans)),
        missing=missing,
        period_resolved=period_resolved,
        period_covered=period_covered,
        by_facets=bool(doc_ids),
        by_kind=bool(of_kind),
        kind_words=chosen_kind,
    )


def named_kind(question: str, vocabulary: Vocabulary) -> set[str]:
    """The documents of the kinds a question names ("per the minutes", "the June statement"), when
    they are some of the collection's, not all; empty otherwise.

    General case: a collection of several kinds of document (minutes and statements, contracts and
    invoices) is asked about one by its kind, in full or contracted ("the may stmt",
    `core.text.contracts`); its index says which document is which (`core.ingest.index`), where no
    title or text may say it."""
    ids = [vocabulary.kinds[kind] for kind in _kinds_named(question, vocabulary)]
    chosen = set().union(*ids) if ids else set()
    return chosen if len(chosen) < len(vocabulary.facets) else set()


def kind_words(question: str, vocabulary: Vocabulary) -> dict[str, str]:
    """The question's own words, lower-cased, that name the kinds `named_kind` reads, with the kind's
    word each stands for ("stmt" → "statement"): a passage of that kind meets the word where its title
    writes the kind in full (`support.found_terms`' forms)."""
    named = [w for kind in _kinds_named(question, vocabulary) for w in words(kind)]
    return {
        w.lower(): k.lower() for w in words(question) if w.lower() not in STOPWORDS for k in named if _names(stem(w), k)
    }


def _kinds_named(question: str, vocabulary: Vocabulary) -> list[str]:
    """The kinds of the collection whose every word the question writes, in full or contracted."""
    asked = {stem(w) for w in words(question)}
    return [kind for kind in vocabulary.kinds if all(any(_names(a, w) for a in asked) for w in words(kind))]


def _names(asked: str, word: str) -> bool:
    """True when a question's stemmed word writes `word` of a kind, whole or contracted ("stmt")."""
    return asked == stem(word) or contracts(asked, word) or contracts(asked, stem(word))


def _forms_of(form: str, vocabulary: Vocabulary) -> set[str]:
    """Every form of the entity `form` belongs to (a name's acronym and long form), for citations."""
    name = vocabulary.names[form]
    return {form} | {f for f, n in vocabulary.names.items() if n == name}
