"""docs/rules-coverage.md traces every rulebook sentence to the tests that check it.

The sentences come from the rulebooks themselves (tools/rulebook_sentences.py): a sentence
without a row fails, and so do a row for a sentence the rulebooks no longer have, a row
with no gloss or an unknown topic, and a topic naming a test that does not exist.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from tools.rulebook_sentences import MATRIX, Sentence, all_sentences, matrix_keys, seeds_dir

TESTS = Path(__file__).resolve().parent

#: | key | sentence | gloss | `topic` |
_SENTENCE_ROW = re.compile(r"^\| ([0-9]{3}-[a-z-]+-[0-9a-f]{8}) \| (.*) \| (.*) \| `([a-z-]+)` \|$")
#: | `topic` | rule | tests | notes |
_TOPIC_ROW = re.compile(r"^\| `([a-z-]+)` \| (.*?) \| (.*?) \| (.*) \|$")
_TEST_REF = re.compile(r"`(test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`")


@cache
def matrix() -> str:
    """The matrix's text."""
    return MATRIX.read_text(encoding="utf-8")


@cache
def rulebook_sentences() -> dict[str, Sentence] | None:
    """Every rulebook sentence by key, or None without the rulebooks."""
    seeds = seeds_dir()
    return None if seeds is None else {s.key: s for s in all_sentences(seeds)}


@cache
def defined_tests(file: str) -> frozenset[str]:
    """The test functions a test file defines (module level or in a class)."""
    path = TESTS / file
    if not path.exists():
        return frozenset()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


def problems(text: str, sentences: dict[str, Sentence] | None) -> list[str]:
    """Everything wrong with a matrix's text (with the rulebooks: against them too)."""
    out: list[str] = []
    topics = {m.group(1): (m.group(2), m.group(3), m.group(4))
              for line in text.splitlines() if (m := _TOPIC_ROW.match(line))}
    rows = {m.group(1): (m.group(2), m.group(3), m.group(4))
            for line in text.splitlines() if (m := _SENTENCE_ROW.match(line))}
    keys = matrix_keys(text)
    if len(keys) != len(set(keys)):
        out.append("a sentence has two rows")
    out += [f"{k}: malformed row" for k in sorted(set(keys) - set(rows))]
    for key, (sentence, gloss, topic) in rows.items():
        if not sentence.strip() or not gloss.strip():
            out.append(f"{key}: no sentence or no gloss")
        if topic not in topics:
            out.append(f"{key}: unknown topic {topic!r}")
    out += [f"topic {t} has no sentence" for t in sorted(set(topics) - {r[2] for r in
                                                                        rows.values()})]
    for topic, (rule, tests, notes) in topics.items():
        refs = _TEST_REF.findall(tests)
        if tests.startswith("n/a"):
            if refs or not notes.strip() or not topic.startswith("na-"):
                out.append(f"{topic}: n/a is for na- topics, with a reason and no tests")
            continue
        if not refs or len(refs) != tests.count("::") or not rule.strip():
            out.append(f"{topic}: no test named, or a malformed reference")
        out += [f"{topic}: {file}::{name} does not exist" for file, name in refs
                if name not in defined_tests(file)]
    if sentences is not None:
        out += [f"{k} ({s.part} / {s.section}) has no row: {s.text[:60]}"
                for k, s in sentences.items() if k not in rows]
        out += [f"{k}: no such rulebook sentence" for k in rows if k not in sentences]
        out += [f"{k}: the sentence differs from the rulebook" for k, s in sentences.items()
                if k in rows and rows[k][0] != s.text.replace("|", "\\|")]
    return out


def test_the_matrix_rows_topics_and_tests_are_sound() -> None:
    found = problems(matrix(), None)
    assert not found, "\n".join(found[:20])
    assert len(matrix_keys(matrix())) > 1000


def test_every_rulebook_sentence_has_exactly_one_row() -> None:
    sentences = rulebook_sentences()
    if sentences is None:
        pytest.skip("the rulebooks are not beside the checkout (set RULEBOOKS)")
    found = problems(matrix(), sentences)
    assert not found, "python tools/rulebook_sentences.py --missing:\n" + "\n".join(found[:20])


def test_a_missing_row_a_made_up_test_or_topic_is_caught() -> None:
    text = matrix()
    lines = text.splitlines()
    first_row = next(i for i, line in enumerate(lines) if _SENTENCE_ROW.match(line))
    key = _SENTENCE_ROW.match(lines[first_row]).group(1)  # type: ignore[union-attr]
    dropped = "\n".join(lines[:first_row] + lines[first_row + 1:])
    sentences = rulebook_sentences()
    if sentences is not None:
        assert any(key in p and "has no row" in p for p in problems(dropped, sentences))
    renamed = text.replace("::test_buy_at_printed_price`", "::test_buy_at_any_price`", 1)
    assert any("test_buy_at_any_price does not exist" in p for p in problems(renamed, None))
    bad_topic = text.replace(lines[first_row], lines[first_row].rsplit("`", 2)[0]
                             + "`no-such-topic` |")
    assert any("unknown topic 'no-such-topic'" in p for p in problems(bad_topic, None))
    no_gloss = text.replace(lines[first_row], " | ".join(
        lines[first_row].split(" | ")[:2] + [" ", lines[first_row].split(" | ")[3]]))
    assert any(key in p and "no gloss" in p for p in problems(no_gloss, None))
