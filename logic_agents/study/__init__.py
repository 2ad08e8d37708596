"""Studies: many agents on many instances, paired by seed, as rows a results file keeps.

Concepts (one module each): batch (compare(): jobs on the process pool or Ray, the entries a
command names), entries (MapEntry and groups), rows (Row, RowSink, read_rows, what a resume
checks), record (the study record beside --out), summary (win rates or scores, paired tests),
results (Study, GamePage, PlayedEpisode: what the Python API returns), ray_backend.
"""
