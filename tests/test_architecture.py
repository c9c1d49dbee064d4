"""The house keeps its shape (docs/architecture.md): no import circle between any two
modules, imports inside functions included, and every import points down the layers."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "web_remote", "tools")
#: the layers of docs/architecture.md, by module prefix (the longest prefix wins)
LAYERS = {
    "companion.rules": 0,
    "companion.editions": 1,
    "companion.paths": 1, "companion.engine_build": 0, "companion.config": 1,
    "companion": 0,
    "companion.game": 2,
    "companion.bots": 2.5,
    "companion.words": 3,
    "companion.inputs": 4,
    "companion.speech": 4.5,
    "companion.screen": 5, "hardware": 5, "web_remote": 5,
    "companion.app": 6,
    "tools": 7,
}
#: the parts of layer 5 meet only in companion/app
SIBLINGS = ("companion.screen", "hardware", "web_remote")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path, known: dict[str, Path] | set[str], name: str = "") -> set[str]:
    """The project modules a file (module `name`) imports, anywhere in it: at the top,
    inside functions, under `if TYPE_CHECKING:`; relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from ..y import z
                head = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(head + ([base] if base else []))
            # `from pkg import sub` depends on pkg.sub; `from mod import name` on mod
            subs = [f"{base}.{a.name}" for a in node.names]
            names = [s for s in subs if s in known] or [base]
        else:
            continue
        out |= {n for n in names if n in known}
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known, name) - {name} for name, path in known.items()}


def layer(module: str) -> float:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def part(module: str) -> str | None:
    return next((s for s in SIBLINGS if module == s or module.startswith(s + ".")), None)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    assert cycles(graph()) == []


def test_every_import_points_down() -> None:
    upward = []
    for module, targets in graph().items():
        if module.endswith("__main__"):
            continue  # `python -m companion` is the command line's entry point
        for target in targets:
            if layer(target) > layer(module):
                upward.append(f"{module} -> {target}")
            elif part(module) and part(target) and part(module) != part(target):
                upward.append(f"{module} -> {target} (siblings meet only in companion/app)")
    assert upward == []


#: folders allowed more loose modules, and why: the compiled engine must stay one flat
#: package (a nested package inside the mypyc-compiled companion.rules does not import)
CROWDED_ON_PURPOSE = {"companion/rules": 20}


def test_no_package_holds_more_than_sixteen_loose_modules() -> None:
    crowded = {}
    for package in PACKAGES:
        for folder in [ROOT / package, *(p for p in (ROOT / package).rglob("*") if p.is_dir())]:
            loose = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            name = str(folder.relative_to(ROOT))
            if len(loose) > CROWDED_ON_PURPOSE.get(name, 16):
                crowded[name] = len(loose)
    assert crowded == {}


def test_the_checker_sees_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_function_level_type_checking_and_relative_imports_count(tmp_path: Path) -> None:
    """An import inside a function, under TYPE_CHECKING or relative is an edge too."""
    source = tmp_path / "mod.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from companion.screen import controller\n"
                      "def f():\n    import companion.words.catalog\n"
                      "    from . import texts\n", encoding="utf-8")
    known = {"companion.screen.controller", "companion.words.catalog",
             "companion.screen.texts"}
    assert imports(source, known, "companion.screen.mod") == known


def test_the_phone_views_take_what_they_share_from_the_context() -> None:
    edges = graph()
    assert edges["web_remote.app"] and "web_remote.context" in edges  # the graph was read
    for name, targets in edges.items():
        if name.startswith("web_remote.views."):
            assert not targets & {"web_remote.app", "web_remote"}, name  # the package: the app


# --- the table layer: no face decides a rule (issue 25) ------------------------------------

#: the faces: they render the table and forward what people do; and what a press, a knob
#: turn or a tap means (companion.inputs), which asks the session's view of the table too
FACES = ("companion.screen", "hardware", "web_remote", "companion.inputs")


def _is_face(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FACES)


def test_no_face_imports_the_authority_internals() -> None:
    """A face may use what companion.game.authority offers it (`__all__`: the table of
    rights, who a shared input acts for, who is waited for), never the session's own check
    helpers; and it reaches the game only through companion.game.api, never the session."""
    from companion.game import authority

    known = modules()
    wrong = []
    for name, path in known.items():
        if not _is_face(name):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "companion.game.authority":
                wrong += [f"{name}: {a.name}" for a in node.names
                          if a.name not in authority.__all__]
            if isinstance(node, ast.ImportFrom) and node.module in (
                    "companion.game.session", "companion.game.journal"):
                wrong.append(f"{name}: {node.module}")
    assert wrong == []


def _legal_reads(path: Path) -> int:
    """How often a module reads the engine's offer list (`"legal"`) itself."""
    return sum(isinstance(node, ast.Constant) and node.value == "legal"
               for node in ast.walk(ast.parse(path.read_text("utf-8"))))


#: the faces that still read the engine's `legal` list themselves, and how often: a ratchet
#: that only goes down, and is down to none (issue 25): the screen's decision panel, menu
#: and square picker, a headless table and the phones ask the session's view of the table
#: (companion.game.table.view: `moves_of`, `move`, `choices`, what each button sends);
#: nothing may start reading it again
LEGAL_READERS: dict[str, int] = {}
#: the table layer's names for the state's offers list, which only the layer reads
LAYER_KEYS = ("MOVES_KEY", "CHOICE_FIELDS")


def test_faces_read_the_engines_offers_only_where_they_still_do() -> None:
    reads = {name: _legal_reads(path) for name, path in modules().items() if _is_face(name)}
    grown = {name: n for name, n in reads.items() if n > LEGAL_READERS.get(name, 0)}
    assert grown == {}, "a face reads `legal` itself: ask the session's view of the table " \
        "(companion.game.table) or companion.game.authority instead"


def test_no_face_reaches_the_offers_list_through_the_layers_key() -> None:
    """The key's name is the layer's: a face importing it would read the list itself
    around the ratchet above."""
    wrong = []
    for name, path in modules().items():
        if not _is_face(name):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith("companion.game.table"):
                wrong += [f"{name}: {a.name}" for a in node.names if a.name in LAYER_KEYS]
            if isinstance(node, ast.Attribute) and node.attr in LAYER_KEYS:
                wrong.append(f"{name}: .{node.attr}")
    assert wrong == []


def test_the_ratchet_sees_a_read_of_the_offers(tmp_path: Path) -> None:
    """The counter counts: a face's read of the list is seen, a word in a sentence not."""
    source = tmp_path / "face.py"
    source.write_text('x = state.get("legal") or []\ny = state["legal"]\n'
                      'z = "legal moves"\n', encoding="utf-8")
    assert _legal_reads(source) == 2


# --- the faces draw the table from its typed records, not the state's dicts (issue 25) -----

#: the keys of the public state JSON (docs/state-json.md) that the table's view holds as
#: typed records (companion.game.table.records: `TableView.players`, `deeds`, `turn`): the
#: top-level parts, a player's and an ownable square's fields. Generic keys ("name",
#: "index", "kind") are left out: they name too many other dicts to count honestly
STATE_KEYS = frozenset({
    "players", "squares", "current", "pending", "winner", "version", "turn", "dice", "bank",
    "cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt", "net_worth",
    "owner", "houses", "hotel", "mortgaged", "rent", "price", "group", "last_card",
    "card_news"})


def _state_reads(path: Path) -> int:
    """How often a module reads one of STATE_KEYS out of a dict itself (`x["cash"]`,
    `x.get("owner")`). A count, not a proof: an offer's own "cash" counts as well, so the
    counts below are ceilings that only go down."""
    count = 0
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            count += node.slice.value in STATE_KEYS
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "get" and node.args and \
                isinstance(node.args[0], ast.Constant):
            count += node.args[0].value in STATE_KEYS
    return count


#: the face packages' reads of the state JSON by key, and how many remain: a ratchet that
#: only goes down. What a face draws (cash, squares, jail, owners, houses, whose turn, the
#: bank, the card that is news, the open offers, money's currency and the rule options) is
#: the view's (companion.game.table.view: `players`, `player(name)`, `deeds`, `deed(index)`,
#: `deed_by_id(id)`, `turn`, `bank`, `card`, `open_offers`, `setup`, `decision`), built once
#: per version by the session; the game's story is companion.game.telling.story.Story, a
#: saved game companion.game.api.SavedGame. What is left are other JSON's keys the counter
#: cannot tell apart from the state's, none of them the state: web_remote's 12 are
#: Remote.table matching a state to its view (context.py, which TableView.shows could do),
#: the chart's file of samples (worth.py), and a phone's request: a command's players and
#: dice, an offer's cash and squares (guard.py), the version a phone saw (views/api.py,
#: views/going_back.py) and the new-game form's players (views/banker.py); the screen's 11
#: are the theme's sizes named "cash" and "bank", the registration status's "position",
#: the edition's data file ("squares", "group", "dice": views/board_info.py, views/setup.py)
#: and an auction's close event's "winner" (log_lines.py); the inputs' 3 the edition's
#: data file read by the card registration (registration.py, registrar.py)
STATE_READERS: dict[str, int] = {
    "companion.inputs": 3,
    "companion.screen": 11,
    "web_remote": 12,
}


def _package_of(module: str) -> str | None:
    return next((p for p in STATE_READERS if module == p or module.startswith(p + ".")), None)


def test_faces_read_the_state_dicts_no_more_than_they_still_do() -> None:
    reads = dict.fromkeys(STATE_READERS, 0)
    for name, path in modules().items():
        package = _package_of(name)
        if package is not None:
            reads[package] += _state_reads(path)
    grown = {p: (n, STATE_READERS[p]) for p, n in reads.items() if n > STATE_READERS[p]}
    assert grown == {}, "a face reads the state JSON's dicts more than before ((now, " \
        "allowed)): draw from the table's typed records (TableView.players, deeds, turn)"
    assert reads["companion.screen"] > 0  # the packages were found and read


#: the phones' templates' reads of the state JSON itself (the `state` the views hand them),
#: and how many remain: a ratchet that only goes down. A page draws the table's typed view
#: (`view.version`, `view.bank.pot`, `view.teaching_on`, `view.auction_left(now)`, ...).
#: (The teaching table's lesson is said by the page's view function: web_remote/reasons.py)
TEMPLATE_STATE_READS = 0
TEMPLATES = ROOT / "web_remote" / "templates"


def _template_state_reads(source: str) -> int:
    """How often a Jinja template reads the variable `state` (`state.pot`, `state["pot"]`,
    `f(state)`): its name tokens, not a word of the HTML, a string or another's attribute
    (`view.state`)."""
    from jinja2 import Environment

    count, previous = 0, ""
    for _line, kind, value in Environment().lex(source):
        if kind == "whitespace":
            continue
        count += kind == "name" and value == "state" and previous != "."
        previous = value if kind == "operator" else kind
    return count


def test_templates_read_the_state_no_more_than_they_still_do() -> None:
    pages = sorted(TEMPLATES.rglob("*.html"))
    reads = {str(p.relative_to(TEMPLATES)): _template_state_reads(p.read_text("utf-8"))
             for p in pages}
    assert len(pages) > 10 and "parts/me.html" in reads  # the templates were found and read
    total = sum(reads.values())
    assert total <= TEMPLATE_STATE_READS, "a template reads the state JSON more than before " \
        f"({ {p: n for p, n in reads.items() if n} }): draw from the table's view " \
        "(companion.game.table.view: view.version, view.bank, view.decision, ...)"


def test_the_template_ratchet_sees_a_state_read() -> None:
    """The template counter counts the variable, not HTML, strings or another's field."""
    source = ('<p class="state">{{ state.pot }} {{ view.state }} {{ "state" }}</p>'
              '{% if state["teaching"] %}{{ lesson_for(state, None) }}{% endif %} state.x')
    assert _template_state_reads(source) == 3


def test_the_state_ratchet_sees_a_dict_read(tmp_path: Path) -> None:
    """The counter counts a subscript and a .get of a state key, not a word or another key."""
    source = tmp_path / "face.py"
    source.write_text('a = p["cash"]\nb = s.get("owner")\nc = "cash"\nd = x.get("colour")\n'
                      'e = x["name"]\nf = state.get("players") or []\n', encoding="utf-8")
    assert _state_reads(source) == 3
