"""Rerankers behind the core's `Reranker` port."""
