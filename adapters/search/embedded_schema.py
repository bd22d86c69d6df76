"""The embedded backend's SQLite schema: segments and summaries, annotations, labels.

BM25 is computed in memory (`embedded_lexical.py`); the FTS5 table of earlier versions is dropped.
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS segments (
    rowid INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    collection TEXT NOT NULL,
    category TEXT,
    kind TEXT NOT NULL,
    position INTEGER NOT NULL,
    span_start INTEGER,
    span_end INTEGER,
    title TEXT NOT NULL,
    section TEXT,
    page INTEGER,
    url TEXT,
    date TEXT,
    text TEXT NOT NULL,
    embedding BLOB NOT NULL,
    tokens TEXT  -- BM25 tokens of a segment, space-separated (NULL for summaries)
);
CREATE INDEX IF NOT EXISTS segments_doc ON segments(doc_id);
DROP TRIGGER IF EXISTS segments_ai;
DROP TRIGGER IF EXISTS segments_ad;
DROP TABLE IF EXISTS segments_fts;
CREATE TABLE IF NOT EXISTS annotations (
    rowid INTEGER PRIMARY KEY,
    annotation_id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    collection TEXT NOT NULL,
    category TEXT,
    date TEXT,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS annotations_doc ON annotations(doc_id);
CREATE TABLE IF NOT EXISTS labels (label TEXT PRIMARY KEY, embedding BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

SEGMENT_COLUMNS = (
    "s.rowid, s.chunk_id, s.doc_id, s.collection, s.kind, s.position, s.span_start, s.span_end,"
    " s.title, s.section, s.page, s.url, s.date, s.text"
)
