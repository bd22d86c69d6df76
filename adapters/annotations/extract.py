"""Annotations from loaded documents: "Label: value" facts, two-column tables and table rows."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from adapters.annotations.units import Quantity, UnitNormalizer
from core.knowledge import Annotation, DocumentRecord, LoadedDocument, Segment, SourceTable

# A column header's unit: `Width (mm)`, `Weight [kg]`, `Amount (EUR)`, `Price, USD`.
_HEADER_UNIT = re.compile(
    r"^(?P<name>.*?\S)\s*"
    r"(?:\((?P<paren>[^()]{1,12})\)|\[(?P<bracket>[^\[\]]{1,12})\]|,\s*(?P<comma>\S{1,6}))\s*$"
)
_FACT_LINE = re.compile(r"^\s*(?:[-*•+]\s+)?(?P<label>[A-Za-z][\w ()/.-]{0,39}?)\s*:\s+(?P<value>\S.{0,59})$")


class Annotator:
    """Extracts annotations with provenance (document, segment, page)."""

    def __init__(self, *, units: UnitNormalizer) -> None:
        self._units = units

    def annotate(
        self, document: LoadedDocument, record: DocumentRecord, segments: Sequence[Segment]
    ) -> list[Annotation]:
        """Facts from text lines and two-column tables; rows from wider tables."""
        annotations: list[Annotation] = []
        for block in document.blocks:
            for line in block.text.splitlines():
                match = _FACT_LINE.match(line)
                if match and not line.lstrip().startswith("|"):
                    annotations.append(
                        self._fact(
                            record,
                            match.group("label"),
                            match.group("value"),
                            block.section,
                            block.page,
                            _segment_of(segments, line.strip(" -*•+"), block.page),
                        )
                    )
        for table in document.tables:
            annotations.extend(self._table(record, table, segments))
        for number, annotation in enumerate(annotations):
            annotation.annotation_id = f"{record.doc_id}:a{number}"
        return annotations

    def _fact(
        self,
        record: DocumentRecord,
        label: str,
        value: str,
        section: str | None,
        page: int | None,
        chunk_id: str | None,
    ) -> Annotation:
        quantity = self._units.parse(value)
        return Annotation(
            annotation_id="",
            doc_id=record.doc_id,
            collection=record.collection,
            kind="fact",
            label=label.strip(),
            value=value.strip(),
            value_num=quantity.value if quantity else None,
            unit=quantity.unit if quantity else None,
            title=record.title,
            section=section,
            page=page,
            chunk_id=chunk_id,
            date=record.date,
            category=record.category,
        )

    def _table(self, record: DocumentRecord, table: SourceTable, segments: Sequence[Segment]) -> list[Annotation]:
        if len(table.columns) == 2:
            return [
                self._fact(
                    record,
                    row[0],
                    row[1],
                    table.section,
                    table.page,
                    _segment_of(segments, row[1], table.page),
                )
                for row in table.rows
                if len(row) == 2 and row[0].strip() and row[1].strip()
            ]
        out = []
        header_units = {c: unit for c in table.columns if (unit := self._header_unit(c))}
        for row in table.rows:
            properties = {c: v for c, v in zip(table.columns, row, strict=False) if c}
            numbers, units = {}, {}
            for column, cell in properties.items():
                quantity = self._cell(cell, header_units.get(column)) if cell else None
                if quantity is not None:
                    numbers[column] = quantity.value
                    if quantity.unit:
                        units[column] = quantity.unit
            value = "; ".join(f"{c}: {v}" for c, v in properties.items() if v)
            out.append(
                Annotation(
                    annotation_id="",
                    doc_id=record.doc_id,
                    collection=record.collection,
                    kind="row",
                    label=table.section or record.title,
                    value=value,
                    properties=properties,
                    numbers=numbers,
                    units=units,
                    title=record.title,
                    section=table.section,
                    page=table.page,
                    chunk_id=_segment_of(segments, value, table.page),
                    date=_row_date(properties) or record.date,
                    category=record.category,
                )
            )
        return out

    def _header_unit(self, column: str) -> str | None:
        """The unit a column header names (`Width (mm)` → `mm`), when the normaliser knows it."""
        match = _HEADER_UNIT.match(column)
        if not match:
            return None
        unit = (match.group("paren") or match.group("bracket") or match.group("comma") or "").strip()
        return unit if self._units.known_unit(unit) else None

    def _cell(self, cell: str, header_unit: str | None) -> Quantity | None:
        """A cell's quantity; a bare number takes its column header's unit."""
        quantity = self._units.parse(cell)
        if quantity is not None and quantity.unit is None and header_unit:
            return self._units.normalize(quantity.value, header_unit)
        return quantity


def _segment_of(segments: Sequence[Segment], text: str, page: int | None) -> str | None:
    """The segment that holds `text` (provenance for citations)."""
    needle = " ".join(text.split())[:80]
    for segment in segments:
        if (page is None or segment.page == page) and needle in " ".join(segment.text.split()):
            return segment.chunk_id
    return None


def _row_date(properties: dict[str, str]) -> dt.date | None:
    """A row's own date (a receipt's), when it has an ISO date column."""
    for column, value in properties.items():
        if "date" in column.lower():
            try:
                return dt.date.fromisoformat(value.strip()[:10])
            except ValueError:
                continue
    return None
