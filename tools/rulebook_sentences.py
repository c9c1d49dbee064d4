"""Every sentence of the five rulebooks, by rulebook, part and section, with a stable key.

The rulebooks (shared/seeds/ beside the checkout, or $RULEBOOKS) are the source of truth
for docs/rules-coverage.md, the traceability matrix: each sentence found here must have a
row there, so that none is skipped. A sentence is cut at . ! ? ; (not inside the
abbreviations below), a list item or a table row is one sentence, and a heading names the
section of the sentences under it. A key is the rulebook's part and the first 8 hex digits
of the sentence's SHA-1: it stays the same while the sentence does, wherever it moves.

    python tools/rulebook_sentences.py             count the sentences per part
    python tools/rulebook_sentences.py --missing   print a row for each sentence the
                                                   matrix lacks (to fill in by hand)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATRIX = ROOT / "docs" / "rules-coverage.md"

#: (file, [(part, how its first line starts)]): a part is one edition's rules
#: in one language; the parts of a file follow each other in the order given
RULEBOOKS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("000_7c4ef049904bf0f0.txt", (("000-sv", ""),)),
    ("001_64dc1366f8ac30c2.txt", (("001-fr", ""),
                                  ("001-de", "DAS BERÜHMTE GESELLSCHAFTSSPIEL"))),
    ("002_c3f33210f57e20c3.txt", (("002-mega-fr", ""),
                                  ("002-history-fr", "# HISTOIRE DU MONOPOLY"),
                                  ("002-classic-fr", "# RÈGLE ÉDITION CLASSIQUE"),
                                  ("002-mega-nl", "# SPELREGELS VOOR MEGA MONOPOLY"),
                                  ("002-history-nl", "# GESCHIEDENIS VAN MONOPOLY"),
                                  ("002-classic-nl", "# HET BEROEMDE GEZELSCHAAPSPEL"))),
    ("003_325b38dd69b1f861.txt", (("003-pl", ""),)),
    ("004_a079a158fa5bad6b.txt", (("004-ru", ""),)),
)

#: the Polish rulebook's paragraphs each begin with their section's title, run into the text
PL_TITLES = ("Podstawy", "Poruszanie się", "Kupowanie nieruchomości", "Czynsz", "Więzienie",
             '"Szansa" i "Kasa Społeczna"', "Podatki", "Domy i Hotele", "Start", "Kredyt",
             "Zwycięstwo")

#: abbreviations whose full stop ends no sentence
ABBREVIATIONS = ("Kr.", "kr.", "st.", "t.ex.", "d.v.s.", "o.s.v.", "m. m.", "ang.", "Obs.",
                 "Fr.", "z.B.", "d.h.", "b.v.", "evt.", "blz.", "c.-à-d.", "p.ex.", "etc.",
                 "с.")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a rulebook: where it stands and what it says."""

    part: str
    section: str
    text: str

    @property
    def key(self) -> str:
        """The part and a short hash of the text: stable while the sentence is."""
        return f"{self.part}-{hashlib.sha1(self.text.encode()).hexdigest()[:8]}"


def seeds_dir() -> Path | None:
    """Where the rulebooks are: $RULEBOOKS, else shared/seeds beside the checkout."""
    env = os.environ.get("RULEBOOKS")
    for candidate in ((Path(env),) if env else ()) + (ROOT.parent / "shared" / "seeds",):
        if (candidate / RULEBOOKS[0][0]).exists():
            return candidate
    return None


_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_BOLD_LINE = re.compile(r"^\*\*([^*]+)\*\*$")
_ITEM = re.compile(r"^(?:[-▶•]\s*)+(?:\d+\.\*?\*?\s+)?")
_NUMBERED = re.compile(r"^\**(\d+)\.\**\s+")


def _clean(text: str) -> str:
    """Markdown emphasis and doubled spaces out; what a reader sees."""
    text = re.sub(r"\*\*|__", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def _is_heading(line: str) -> str | None:
    """The section title a line is, or None."""
    m = _HEADING.match(line)
    if m:
        return _clean(m.group(1))
    m = _BOLD_LINE.match(line)
    if m and len(line) < 80:
        return _clean(m.group(1))
    words = line.split()
    if (0 < len(words) <= 7 and not re.search(r"[.:;,!?»«\"]$|\d", line)
            and not line.startswith(("-", "▶", "|", "*")) and line[0].isupper()):
        return _clean(line)
    return None


def split_sentences(text: str) -> list[str]:
    """The sentences of a paragraph, cut after . ! ? ; (not after an abbreviation)."""
    protected = _clean(text)
    for abbr in ABBREVIATIONS:  # a whole word only: "st." is no abbreviation in "auktionist."
        protected = re.sub(r"(?<![\w.])" + re.escape(abbr),
                           abbr.replace(".", "\x00").replace("\\", "\\\\"), protected)
    protected = re.sub(r"(\d)\.(\d)", "\\1\x01\\2", protected)
    parts = re.split(r"(?<=[.!?;])\s+(?=[\"«“(A-ZÀ-ÖØ-ÞА-ЯЁ0-9])", protected)
    out = []
    for part in parts:
        part = part.replace("\x00", ".").replace("\x01", ".")
        part = _clean(part)
        if re.search(r"\w", part):
            out.append(part)
    return out


def _paragraphs(lines: list[str]) -> list[tuple[str, str]]:
    """(kind, text) blocks: "heading", "item" (a list item or table row) or "text"."""
    blocks: list[tuple[str, str]] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append(("text", " ".join(current)))
            current.clear()

    for raw in lines:
        line = raw.strip()
        if not line:
            flush()
            continue
        heading = _is_heading(line)
        if heading is not None and not current:
            blocks.append(("heading", heading))
            continue
        if _NUMBERED.match(line):  # "2. Séparez les cartes": a numbered paragraph of its own
            flush()
            line = _NUMBERED.sub("", line)
        if _ITEM.match(line) or "\t" in raw or line.startswith("|"):
            flush()
            item = _clean(_ITEM.sub("", line).replace("\t", " ").strip("| "))
            if re.search(r"\w", item):
                blocks.append(("item", item))
            continue
        current.append(line)
    flush()
    return blocks


def sentences_of(part: str, lines: list[str]) -> list[Sentence]:
    """Every sentence of one part of a rulebook."""
    out: list[Sentence] = []
    section = ""
    for kind, text in _paragraphs(lines):
        if kind == "heading":
            section = text
            continue
        if part == "003-pl":
            title = next((t for t in PL_TITLES if text.startswith(t + " ")), None)
            if title is not None:
                section, text = title, text[len(title) + 1:]
        if kind == "item":
            out.append(Sentence(part, section, text))
            continue
        text = _NUMBERED.sub("", text)
        out.extend(Sentence(part, section, s) for s in split_sentences(text))
    return out


def all_sentences(seeds: Path) -> list[Sentence]:
    """Every sentence of every rulebook, in the order of the files; each key once."""
    out: list[Sentence] = []
    for name, parts in RULEBOOKS:
        lines = (seeds / name).read_text(encoding="utf-8").splitlines()
        starts = [0 if not first else next(i for i, line in enumerate(lines)
                                           if line.startswith(first))
                  for _, first in parts]
        for (part, _), start, end in zip(parts, starts, [*starts[1:], len(lines)],
                                         strict=True):
            out.extend(sentences_of(part, lines[start:end]))
    seen: set[str] = set()
    unique = []
    for s in out:  # a sentence said twice in one part (a repeated list item) is one row
        if s.key not in seen:
            seen.add(s.key)
            unique.append(s)
    return unique


#: a row of the matrix: | key | ... |
_ROW = re.compile(r"^\|\s*`?([0-9]{3}-[a-z-]+-[0-9a-f]{8})`?\s*\|")


def matrix_keys(text: str) -> list[str]:
    """The sentence keys the matrix has rows for, in order."""
    return [m.group(1) for line in text.splitlines() if (m := _ROW.match(line))]


def main(argv: list[str] | None = None) -> int:
    """Count the sentences, or print rows for the ones the matrix lacks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true",
                        help="print a matrix row for every sentence without one")
    args = parser.parse_args(argv)
    seeds = seeds_dir()
    if seeds is None:
        print("rulebooks not found: set RULEBOOKS to the seeds folder", file=sys.stderr)
        return 2
    found = all_sentences(seeds)
    if not args.missing:
        counts: dict[str, int] = {}
        for s in found:
            counts[s.part] = counts.get(s.part, 0) + 1
        for part, n in counts.items():
            print(f"{part}: {n}")
        print(f"all: {len(found)}")
        return 0
    have = set(matrix_keys(MATRIX.read_text(encoding="utf-8"))) if MATRIX.exists() else set()
    section = None
    for s in found:
        if s.key in have:
            continue
        if (s.part, s.section) != section:
            section = (s.part, s.section)
            print(f"\n<!-- {s.part} / {s.section} -->")
        print(f"| {s.key} | {s.text.replace('|', '/')} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
