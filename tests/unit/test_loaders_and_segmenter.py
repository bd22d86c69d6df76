"""Markdown and text loaders, and section-aware segmentation."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from adapters.loaders.markdown import MarkdownLoader
from adapters.loaders.text import TextLoader
from core.ingest.segmenter import Segmenter
from core.knowledge import DocumentRecord, LoadedDocument, SourceBlock


def test_markdown_front_matter_title_date_url_and_sections(tmp_path: Path) -> None:
    path = tmp_path / "policy.md"
    path.write_text(
        "---\ntitle: Travel policy\ndate: 2024-01-10\nurl: https://intranet.example/travel\n---\n"
        "# Ignored H1\n\nIntro.\n\n## Hotels\n\nUp to EUR 165.\n\n### Breakfast\n\n- included\n\n## Rail\n\nTrain.\n",
        encoding="utf-8",
    )
    doc = MarkdownLoader().load(path)
    assert (doc.title, doc.date, doc.url) == (
        "Travel policy",
        dt.date(2024, 1, 10),
        "https://intranet.example/travel",
    )
    assert [(b.section, b.text) for b in doc.blocks] == [
        (None, "Intro."),
        ("Hotels", "Up to EUR 165."),
        ("Hotels > Breakfast", "- included"),
        ("Rail", "Train."),
    ]


def test_markdown_title_from_h1_and_date_from_file_name(tmp_path: Path) -> None:
    path = tmp_path / "2023-06-15-statement.md"
    path.write_text("# Hybrid work\n\nTwo anchor days.\n", encoding="utf-8")
    doc = MarkdownLoader().load(path)
    assert doc.title == "Hybrid work" and doc.date == dt.date(2023, 6, 15)


def test_text_loader_paragraphs_and_no_modification_date(tmp_path: Path) -> None:
    path = tmp_path / "it_onboarding.txt"
    path.write_text("First paragraph\nstill first.\n\nSecond paragraph.\n", encoding="utf-8")
    stamp = dt.datetime(2022, 3, 4, 12, tzinfo=dt.UTC).timestamp()
    os.utime(path, (stamp, stamp))
    doc = TextLoader().load(path)
    assert doc.title == "It onboarding"
    assert doc.date is None  # a file's modification time is not the document's date
    assert [b.text for b in doc.blocks] == ["First paragraph\nstill first.", "Second paragraph."]


def _record() -> DocumentRecord:
    return DocumentRecord(
        doc_id="d",
        title="Doc",
        source_path="/d",
        relative_path="d",
        media_type="text/plain",
        content_hash="h",
    )


def word_count(texts: object) -> list[int]:
    return [len(str(t).split()) for t in texts]  # type: ignore[attr-defined]


def test_segments_fit_the_budget_and_never_cross_sections() -> None:
    long_paragraph = " ".join(f"Sentence number {i} is here." for i in range(60))
    doc = LoadedDocument(
        title="Doc",
        media_type="text/plain",
        blocks=[
            SourceBlock(text="Short intro.", section="A"),
            SourceBlock(text=long_paragraph, section="A"),
            SourceBlock(text="x " * 300, section="B"),
            SourceBlock(text="Closing words.", section="C"),
        ],
    )
    segments = Segmenter(count_tokens=word_count, max_seq_length=64).segment(doc, _record())
    budget = 64 - 2 - 2 - 1  # special tokens, "Doc / A" heading, separator
    assert all(word_count([s.text])[0] <= budget for s in segments)
    assert [s.position for s in segments] == list(range(len(segments)))
    assert {s.section for s in segments} == {"A", "B", "C"}
    for section, block_words in (("A", 2 + 5 * 60), ("B", 300), ("C", 2)):
        assert sum(word_count([s.text])[0] for s in segments if s.section == section) == block_words
    assert len({s.chunk_id for s in segments}) == len(segments)


def test_a_sentence_wrapped_over_a_pdf_s_lines_is_not_cut_between_segments() -> None:
    lines = [f"Line {i} is a whole sentence of its own here." for i in range(5)] + [
        "The office will answer online and through virtual consultations to",
        "improve access for readers who cannot travel to a reading room.",
        "It will also digitise records.",
    ]
    doc = LoadedDocument(title="Doc", media_type="application/pdf", blocks=[SourceBlock(text=t) for t in lines])
    segments = Segmenter(count_tokens=word_count, max_seq_length=64).segment(doc, _record())
    budget = 64 - 2 - 1 - 1
    assert len(segments) == 2 and all(word_count([s.text])[0] <= budget for s in segments)
    whole = "virtual consultations to\nimprove access"
    assert any(whole in s.text for s in segments), [s.text for s in segments]
    # A line that stops on "of" goes on in the next, whatever that one starts with (an id the PDF
    # producer left, a capitalised term).
    lines[5:7] = ["The updates will address the increased sensitivity of", "_5391ab pregnant individuals to exposure."]
    doc = LoadedDocument(title="Doc", media_type="application/pdf", blocks=[SourceBlock(text=t) for t in lines])
    segments = Segmenter(count_tokens=word_count, max_seq_length=64).segment(doc, _record())
    assert any("sensitivity of\n_5391ab pregnant" in s.text for s in segments), [s.text for s in segments]
    # A sentence too long for one segment is still cut where the budget ends.
    wrapped = [" ".join(["word"] * 20) for _ in range(4)]
    doc = LoadedDocument(title="Doc", media_type="application/pdf", blocks=[SourceBlock(text=t) for t in wrapped])
    segments = Segmenter(count_tokens=word_count, max_seq_length=64).segment(doc, _record())
    assert all(word_count([s.text])[0] <= budget for s in segments)
    assert sum(word_count([s.text])[0] for s in segments) == 80
