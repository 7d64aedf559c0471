"""Per-index calibration of the relevance decision (`retrievers.relevance`): the questions it
is set on (`questions`) and the fit (`fit`). Runs as a step of ingest; `situated calibrate`
re-runs it as a report."""
