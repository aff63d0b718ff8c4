"""The experiment loop's comparison (`bench/eval_explore.py --against`): what moved, per corpus
and per question, and the lowest corpora after."""

from __future__ import annotations

from eval_explore import compare


def test_compare_names_what_moved_and_the_lowest_corpora():
    before = {"a-1": {"spine_full_recall": 0.5}, "a-2": {"spine_full_recall": 1.0}, "b-1": {"spine_full_recall": 0.2}}
    after = {"a-1": {"spine_full_recall": 0.75}, "a-2": {"spine_full_recall": 1.0}, "b-1": {"spine_full_recall": 0.2}}
    text = compare(before, after, {"a-1": "alpha", "a-2": "alpha", "b-1": "beta"})
    lines = text.splitlines()
    assert lines[0] == "spine_full_recall: 0.567 -> 0.650 (3 cases)"
    assert "  alpha        0.75 -> 0.88" in lines
    assert any(line.split() == ["a-1", "0.50", "->", "0.75"] for line in lines)
    assert not any("a-2" in line or line.strip().startswith("beta") for line in lines[1:-1])  # unchanged: not listed
    assert lines[-1] == "lowest corpora after: beta 0.20, alpha 0.88"


def test_compare_gives_the_difference_an_interval_over_resampled_corpora():
    """Resampling corpora, not questions: a gain on one corpus of two can vanish in a draw; a gain on
    every corpus keeps its interval above zero."""
    from eval_explore import interval

    before = {k: {"spine_full_recall": 0.5} for k in ("a-1", "a-2", "b-1", "b-2")}
    corpora = {"alpha": ["a-1", "a-2"], "beta": ["b-1", "b-2"]}
    one = dict(before, **{"a-1": {"spine_full_recall": 1.0}, "a-2": {"spine_full_recall": 1.0}})
    text = interval(before, one, corpora, "spine_full_recall")
    assert text.startswith("difference +0.250, 90 % interval over resampled corpora +0.000 … +0.500")
    assert text.endswith("corpora up 1, down 0, the same 1")
    every = {k: {"spine_full_recall": 0.75} for k in before}
    assert "interval over resampled corpora +0.250 … +0.250" in interval(before, every, corpora, "spine_full_recall")
