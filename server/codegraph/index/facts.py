"""The facts of a file live on the bottom floor (`model/facts.py`), imported by every stage.
This name stays for code written against it (branches in flight); new code imports the model."""

from ..model.facts import (  # noqa: F401
    CALLABLE_KINDS,
    CLASS_KINDS,
    EXTRACTOR_VERSION,
    Call,
    DeferredCalls,
    FileFacts,
    Import,
    Supertype,
    Unit,
    referenced_names,
)
