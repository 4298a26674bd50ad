"""The designer page's side of the server: a pack's text checked as it is typed, saved, tested, simulated.

A draft (the editor's text) is checked as `boardrule check` checks a file,
by the same function (`interpreter.check.check_pack`): it is written to a
fresh temporary folder under the pack's file name, so that the codes,
lines and columns are those `check` gives for the file, and the
diagnostics name the pack's own file. An `extends:` of a draft reads the
pack's own folder and the bundled packs, as it would from the file
(confined paths: dsl/packpath.py). The tests, the rules reference and the
simulations run with the same work budget as `check` and `simulate`
(interpreter/runtime/budget.py); no pack code runs in the browser.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from boardrule.dsl.diagnostics import BoardruleError, SourceStore, diagnostic_to_dict, render
from boardrule.interpreter.runtime.values import RuleError

MAX_SIMULATED = 500  # games a simulate request may ask for
MAX_DRAFT = 2_000_000  # characters of a draft


class DraftError(Exception):
    """A request about a draft the server refuses (its text goes to the page)."""


class Drafts:
    """The packs the designer page may open and save: the bundled ones and the one `serve` was given."""

    def __init__(self, served=None, folder=None):
        from boardrule.dsl.packpath import bundled_pack_names, find_pack
        self.files = {}  # pack name -> its file
        for name in bundled_pack_names():
            self.files[name] = find_pack(name).path
        self.bundled = set(self.files)
        self.served = None
        if served is not None:
            path = find_pack(served).path
            self.served = str(path) if Path(str(served)).exists() else path.stem
            self.files.setdefault(self.served, path)
        self.folder = Path(folder) if folder is not None else Path.cwd()
        self.copies = {}  # bundled pack name -> the copy saved in `folder`

    def path_of(self, name) -> Path:
        if name in self.copies:
            return self.copies[name]
        path = self.files.get(name)
        if path is None:
            raise DraftError(f"`{name}` is not a pack this server opens: the bundled packs and the one "
                             "`boardrule serve` was given")
        return path

    def source(self, name) -> dict:
        path = self.path_of(name)
        return {"pack": name, "file": path.name, "text": path.read_text(encoding="utf-8"),
                "saves_to": self._shown(self._save_target(name))}

    def _shown(self, path) -> str:
        """A path as the page shows it: from the server's folder when it is inside it."""
        try:
            return str(Path(".") / path.resolve().relative_to(self.folder.resolve()))
        except ValueError:
            return str(path)

    def _save_target(self, name) -> Path:
        if name in self.bundled:
            return self.copies.get(name, self.folder / f"{name}.pack")
        return self.path_of(name)

    # ------------------------------------------------------------ checking
    def check(self, name, text, tests=False) -> dict:
        """The draft's diagnostics as `check` gives them for its file (without the pack's tests unless
        `tests`), each as JSON and as `check` prints it."""
        from boardrule.interpreter.designer.check import check_pack
        home = self.path_of(name)
        with _written(home.name, text) as path:
            sources = SourceStore()
            report = check_pack(path, sources, run_pack_tests=tests, extends_from=(home.parent,))
            found = []
            for diag in report.diagnostics:
                entry = diagnostic_to_dict(diag)
                if entry.get("file") == str(path):
                    entry["file"] = home.name
                entry["text"] = render(diag, sources).replace(str(path), home.name)
                found.append(entry)
        out = {"pack": name, "file": home.name, "ok": report.ok, "diagnostics": found}
        if tests:
            out["tests"] = [{"name": test, "ok": not failures,
                             "messages": [d.message for d in failures]} for test, failures in report.tests]
        return out

    def save(self, name, text) -> dict:
        """Write the draft to its file (a bundled pack: a copy in the server's folder), then check it with its
        tests."""
        target = self._save_target(name)
        if name in self.bundled and name not in self.copies and target.exists():
            raise DraftError(f"{target} exists already and is not this server's copy of `{name}`: move it away "
                             "or serve that file (`boardrule serve {target}`)")
        try:
            target.write_text(_limited(text), encoding="utf-8")
        except OSError as err:
            raise DraftError(f"cannot write {target}: {err.strerror or err}") from None
        if name in self.bundled:
            self.copies[name] = target
        out = self.check(name, text, tests=True)
        out["saved"] = self._shown(target)
        return out

    # ------------------------------------------------------------ the reference and the lab
    def rules(self, name, text) -> dict:
        """The rules reference of the draft (`boardrule rules --format html`), or why there is none."""
        from boardrule.interpreter.api import open_game
        from boardrule.interpreter.designer.rulesdoc import rules_text
        home = self.path_of(name)
        with _written(home.name, text) as path:
            try:
                return {"html": rules_text(open_game(path), "html")}
            except (BoardruleError, RuleError):
                return {"error": "the pack has errors: the reference comes back once it checks clean"}

    def simulate(self, name, text, games, seats) -> dict:
        """`boardrule simulate` on the draft: the report as the command prints it, and its plot as SVG when
        matplotlib is there."""
        from boardrule.cli.simprint import render_report
        from boardrule.interpreter.lab import simulate
        if not isinstance(games, int) or not 1 <= games <= MAX_SIMULATED:
            raise DraftError(f"games: a number from 1 to {MAX_SIMULATED}")
        lineup = [s.strip() for s in str(seats or "random").split(",") if s.strip()]
        home = self.path_of(name)
        with _written(home.name, text) as path:
            try:
                result = simulate(path, games, lineup, 0)
            except BoardruleError as err:
                raise DraftError(err.diagnostics[0].message) from None
            except RuleError as err:
                raise DraftError(f"a rule of the pack failed: {err}") from None
            out = {"report": render_report(result.report), "plot": None}
            try:
                from boardrule.cli.plots import plot_report
                plot = path.parent / "plot.svg"
                plot_report(result.report, result.records, plot)
                out["plot"] = plot.read_text(encoding="utf-8")
            except ImportError:
                pass
        return out


def _limited(text) -> str:
    if not isinstance(text, str):
        raise DraftError("the pack's text is missing")
    if len(text) > MAX_DRAFT:
        raise DraftError(f"the pack is longer than {MAX_DRAFT} characters")
    return text


class _written:
    """A draft written to a fresh temporary folder under `file_name`; the folder goes afterwards."""

    def __init__(self, file_name, text):
        self.file_name, self.text = file_name, _limited(text)

    def __enter__(self) -> Path:
        self.folder = tempfile.TemporaryDirectory(prefix="boardrule-draft-")
        path = Path(self.folder.name) / self.file_name
        path.write_text(self.text, encoding="utf-8")
        return path

    def __exit__(self, *exc):
        self.folder.cleanup()
        return False
