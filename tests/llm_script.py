"""A model that follows Threadwise's prompts, written as plain rules: it reads each prompt the way
a careful small model would and answers in the format the prompt asks for. The scripted LangChain
chat model (`tests/llm_fakes.py`) and the loopback chat-completions server (`tests/llm_server.py`)
both use it, so the behaviour set and the wire tests exercise the real prompts and parsers."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from core.llm.gateway import CONTINUE
from core.prompts import clarification, reflection, reformulate, route, summary, synthesis
from core.text import key_terms, split_sentences, stem, words

SOURCE = re.compile(r"^\[(\d+)\] [^\n]*\n(.*?)(?=\n\n\[\d+\] |\Z)", re.MULTILINE | re.DOTALL)


def stage_of(system: str) -> str:
    """Which prompt this is, from its system message."""
    stages = {
        route.SYSTEM: "route",
        synthesis.SYSTEM: "synthesis",
        reflection.SYSTEM: "reflection",
        reformulate.SYSTEM: "reformulate",
        summary.SYSTEM: "summary",
    }
    if system in stages:
        return stages[system]
    if system.startswith(clarification.SYSTEM.split("(")[0]):
        return "clarification"
    raise AssertionError(f"unknown prompt: {system[:80]!r}")


def field(user: str, name: str) -> str:
    """The value of a `Name: value` line of a prompt."""
    match = re.search(rf"^{re.escape(name)}: (.*)$", user, re.MULTILINE)
    assert match, f"the prompt has no {name!r} line"
    return match.group(1).strip()


def follow(messages: Sequence[tuple[str, str]]) -> str:
    """The reply a prompt-following model gives."""
    system, user = messages[0][1], messages[1][1]
    if messages[-1][1] == CONTINUE:
        return ""
    stage = stage_of(system)
    if stage == "route":
        choice = re.search(r"^Rule-based router's choice: (\w+) \(fallbacks: ([^)]*)\)", user, re.MULTILINE)
        assert choice
        fallbacks = [f.strip() for f in choice.group(2).split(",") if f.strip() and f.strip() != "none"]
        reason = f"a {field(user, 'Detected intent')} question; the rule-based choice fits"
        return json.dumps({"route": choice.group(1), "fallbacks": fallbacks, "reason": reason})
    if stage == "synthesis":
        return _answer(field(user, "Question"), user)
    if stage == "reflection":
        return _judge(user)
    if stage == "reformulate":
        question = field(user, "Question")
        return json.dumps({"query": " ".join(key_terms(question)), "passage": question})
    if stage == "summary":
        lines = [line for line in user.split("\n\nNew question:")[0].splitlines()[1:] if line and line != "(empty)"]
        lines.append(f"Asked: {field(user, 'New question')}")
        return "\n".join(lines[-6:])
    draft = user.split("Draft reply:\n", 1)[1]
    return draft


def _roots(text: str) -> set[str]:
    return {stem(w) for w in words(text)}


def _answer(question: str, prompt: str) -> str:
    """Up to three cited sentences sharing most key terms with the question, each source's best first."""
    wanted = {stem(t) for t in key_terms(question)}
    scored: list[tuple[int, int, str]] = []
    for match in SOURCE.finditer(prompt.split("\n\nQuestion: ")[0].removeprefix("Sources:\n")):
        n, text = int(match.group(1)), match.group(2)
        for sentence in split_sentences(text):
            scored.append((len(wanted & _roots(sentence)), -n, f"{sentence.strip()} [{n}]"))
    scored.sort(reverse=True)
    relevant = [(-n, sentence) for overlap, n, sentence in scored if overlap]
    # The best sentence of each source first (a comparison cites every side), then the next best.
    firsts: dict[int, str] = {}
    for n, sentence in relevant:
        firsts.setdefault(n, sentence)
    chosen = list(dict.fromkeys([*firsts.values(), *(sentence for _, sentence in relevant)]))[:3]
    chosen = chosen or [sentence for _, _, sentence in scored[:1]]
    return " ".join(chosen) or "The sources do not say."


def _judge(prompt: str) -> str:
    """Support = the share of the question's key terms that the answer and its sources contain."""
    original = field(prompt, "Original question")
    revised = field(prompt, "Revised query")
    body = _roots(prompt.split("\n\nAnswer:\n", 1)[1])

    def support(question: str) -> float:
        terms = key_terms(question)
        if not terms:
            return 1.0
        found = [t for t in terms if stem(t) in body]
        return round(0.5 + 0.5 * len(found) / len(terms), 3)

    missing = [t for t in key_terms(original) if stem(t) not in body]
    return json.dumps({"support_original": support(original), "support_revised": support(revised), "missing": missing})
