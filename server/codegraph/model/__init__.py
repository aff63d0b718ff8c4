"""The bottom floor: the vocabulary every stage shares, importing nothing of the project.

facts.py     what the index knows of one file (units, calls, imports, supertypes)
bindings.py  what resolution proved of it (edges, deferred references)
fields.py    the request errors and the field readers every request's validation uses
canonical.py canonical JSON: sorted keys, no spaces, UTF-8 (digests, and what the servers send)
"""
