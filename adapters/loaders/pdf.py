"""PDF loader (pypdfium2, Google's PDFium): one block per page, page numbers kept for citations.

PDFium opens what PDF viewers open: owner-password-only files (printing/copying restrictions,
an empty user password) and large real filings with arrays beyond pypdf's parsing limits.
PDFium is not thread-safe, not even across documents, so every call into it runs under one
process-wide lock; the loader still runs on the bounded CPU executor, and the rest of ingestion
(hashing, segmenting, embedding) goes on beside it. Measured against pypdf in BENCHMARKS.md.
"""

from __future__ import annotations

import itertools
import re
import threading
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from adapters.loaders.common import document_date, opening_text, title_from_name
from adapters.loaders.dates import pdf_date
from core.knowledge import LoadedDocument, SourceBlock

_PDFIUM = threading.Lock()
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# What authoring tools leave in /Title when nobody set one: "Microsoft Word - q3.docx", "Document1".
_PLACEHOLDER_TITLE = re.compile(
    r"^(?:microsoft \w+ - .*|.*\.(?:docx?|pdf|xlsx?|pptx?|rtf|indd|html?)|untitled\b.*|document\s*\d*)$", re.I
)

_LOAD_ERRORS = {
    pdfium_c.FPDF_ERR_PASSWORD: "the PDF needs a password to open (a user password is set); "
    "save an unprotected copy to ingest it",
    pdfium_c.FPDF_ERR_SECURITY: "the PDF uses an unsupported security handler (certificate or DRM protection)",
    pdfium_c.FPDF_ERR_FORMAT: "not a readable PDF (the file is damaged or not a PDF)",
    pdfium_c.FPDF_ERR_FILE: "the PDF file cannot be opened",
}


class PdfUnreadable(ValueError):
    """A PDF that cannot be read, with the reason the ingest report shows."""


# A PDF may position two words apart without a space character between them ("Employee
# ViewpointSurvey", "digitalPresidential Libraries"): PDFium's text runs them together, while its text
# rectangles still stand apart. On one line, a gap wider than this share of the line's height is a
# word break (measured on the 19 agency reports: 446 breaks restored, none inside a word, at 0.2; at
# 0.12 four words were split). Words set apart inside one rectangle stay run together ("duties,fees").
_WORD_GAP = 0.2
_BEFORE_WORD = ",;:)"


def _spaced(textpage: pdfium.PdfTextPage, text: str) -> str:
    """`text` with a space wherever two of the page's text rectangles on one line stand a word gap
    apart and the text writes nothing between them."""
    breaks: set[int] = set()
    previous: tuple[float, float, float, float] | None = None
    for index in range(textpage.count_rects()):
        rect = textpage.get_rect(index)
        if previous is not None and _apart(previous, rect):
            left, bottom, _, top = rect
            at = pdfium_c.FPDFText_GetCharIndexAtPos(textpage.raw, left + 0.1, (bottom + top) / 2, 0.5, 0.5)
            if 0 < at < len(text) and text[at].isalnum() and (text[at - 1].isalnum() or text[at - 1] in _BEFORE_WORD):
                breaks.add(at)
        previous = rect
    if not breaks:
        return text
    cuts = [0, *sorted(breaks), len(text)]
    return " ".join(text[a:b] for a, b in itertools.pairwise(cuts))


def _apart(first: tuple[float, float, float, float], second: tuple[float, float, float, float]) -> bool:
    """True when `second` stands on `first`'s line (they share half the lower one's height) and a word
    gap (`_WORD_GAP` of the taller's height) to its right."""
    _, bottom0, right0, top0 = first
    left1, bottom1, _, top1 = second
    lower = min(top0 - bottom0, top1 - bottom1)
    height = max(top0 - bottom0, top1 - bottom1)
    same_line = min(top0, top1) - max(bottom0, bottom1) > lower / 2
    return same_line and height > 0 and (left1 - right0) / height > _WORD_GAP


def _page_text(raw: str) -> str:
    """PDFium's text with plain newlines and without the control characters it marks breaks with."""
    return _CONTROL.sub("", raw.replace("\r\n", "\n").replace("\r", "\n")).strip()


def _one_page(document: pdfium.PdfDocument, index: int) -> str:
    """One page's text; a page PDFium cannot parse counts as a page without text, not a lost file."""
    try:
        page = document[index]
    except pdfium.PdfiumError:
        return ""
    try:
        textpage = page.get_textpage()
        try:
            return _page_text(_spaced(textpage, textpage.get_text_range()))
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return ""
    finally:
        page.close()


def _read(path: Path) -> tuple[list[str], dict[str, str]]:
    """Every page's text and the document information dictionary, under the PDFium lock."""
    with _PDFIUM:
        try:
            document = pdfium.PdfDocument(path)
        except pdfium.PdfiumError as exc:
            reason = _LOAD_ERRORS.get(exc.err_code) if exc.err_code is not None else None
            raise PdfUnreadable(reason or f"not a readable PDF ({exc})") from exc
        try:
            pages = [_one_page(document, index) for index in range(len(document))]
            info = document.get_metadata_dict(skip_empty=True)
        finally:
            document.close()
    return pages, info


class PdfLoader:
    """Reads `.pdf` files; a page without extractable text (a scan) is skipped."""

    suffixes = (".pdf",)

    def load(self, path: Path) -> LoadedDocument:
        """Extract the text of every page; the date from the opening text, title, name or metadata."""
        pages, info = _read(path)
        blocks = [SourceBlock(text=text, page=number) for number, text in enumerate(pages, start=1) if text]
        if not blocks:
            raise PdfUnreadable("no extractable text (a scanned PDF needs OCR first)")
        title = info.get("Title", "").strip()
        if not title or _PLACEHOLDER_TITLE.match(title):
            title = title_from_name(path)
        opening = opening_text(b.text for b in blocks)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            date=document_date({}, path, opening=opening, title=title, embedded=pdf_date(info.get("CreationDate"))),
            media_type="application/pdf",
        )
