"""Queries on the index: symbols by name, a file's outline, callers and callees (proven and
likely, kept apart), and the impact of a change (docs/protocol.md, "Queries").

Pure functions of one index snapshot and one request, like explore and distill: they read
`RootIndex` (the proven graph), `graph/likely.py` (the ranked graph) and never the file system
or a protocol. Positions are 1-based lines and byte offsets; the language server converts them.
"""
