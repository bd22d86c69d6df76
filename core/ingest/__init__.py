"""Ingestion logic: discovery, segmentation and the pipeline that feeds a search backend."""
