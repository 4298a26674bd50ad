"""Finding pack files: the names a user types, and the bases packs extend, confined.

A pack is named on the command line by a bundled name (`connect4`), a bundled
file name (`connect4.pack`, when no such file is here) or a path. The user
chose that file, so any regular file will do.

A pack's ``extends:`` is written by whoever wrote the pack, maybe a stranger,
so it may name only:

* a bundled pack (`tictactoe`, or `tictactoe.pack` when no such file lies
  beside the pack);
* a ``.pack`` file inside the folder of the pack being checked, or inside a
  folder the user allowed (`boardrule check --extends-from DIR`, or the
  folders in the environment variable ``BOARDRULE_EXTENDS_FROM``), after
  symbolic links are followed.

Anything else (an absolute path elsewhere, ``..`` out of the folder, a JSON
or ``.env`` file beside the pack) is refused without being opened, so a
diagnostic can quote nothing of it. A name that is not a regular file (a
folder, a pipe, a device, a loop of links) is refused by what it is.

    >>> find_pack("tictactoe").bundled
    True
    >>> find_pack("no-such-pack")
    Traceback (most recent call last):
    ...
    boardrule.dsl.diagnostics.PackError: error[E120]: unknown pack `no-such-pack` ...

Codes: E120 unknown bundled pack, E121 file not found, E124 bad name,
E116 outside the allowed folders, E117 not a regular file, E118 not a
``.pack`` file.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from boardrule.dsl.diagnostics import PackError, Span, did_you_mean
from boardrule.dsl.records import frozen

PACK_SUFFIX = ".pack"
_BUNDLED_NAME = re.compile(r"[A-Za-z0-9_-]+")  # what a bundled pack's name may be
MAX_NAME = 1024  # characters of a pack name or path: longer is no path a system takes


@frozen
class PackRef:
    """A pack file found: its path, whether it is bundled, and a note for the user when a
    name ending in ``.pack`` was taken as the bundled pack of that name."""

    path: Path
    bundled: bool = False
    note: str | None = None


def bundled_dir() -> Path:
    """The folder holding the bundled ``*.pack`` files."""
    import boardrule.rulepacks  # its folder (not importlib.resources, whose zip support costs 10 ms at start-up)
    return Path(boardrule.rulepacks.__file__).parent


def bundled_pack_names() -> list[str]:
    """Sorted names of the bundled packs (file names without ``.pack``)."""
    return sorted(p.stem for p in bundled_dir().glob(f"*{PACK_SUFFIX}") if p.is_file())


#: folders `extends:` may read from, beside the checked pack's own (os.pathsep between them)
EXTENDS_FROM_VARIABLE = "BOARDRULE_EXTENDS_FROM"


def allowed_folders(extra: tuple = ()) -> tuple:
    """The folders a user allowed `extends:` to read: `extra`, then those in $BOARDRULE_EXTENDS_FROM."""
    named = os.environ.get(EXTENDS_FROM_VARIABLE, "")
    return tuple(extra) + tuple(Path(p) for p in named.split(os.pathsep) if p.strip())


def find_pack(name_or_path: str | os.PathLike, *, span: Span | None = None) -> PackRef:
    """The pack a user names: a path to a file, a bundled name, or a bundled file name."""
    text = _checked_text(name_or_path, span)
    candidate = Path(text)
    if _exists(candidate):
        _require_regular_file(candidate, span)
        return PackRef(candidate)
    return _bundled(text, candidate, span, is_path=isinstance(name_or_path, os.PathLike))


def find_base(text: object, extending: str | os.PathLike, roots: tuple = (), *, span: Span | None = None) -> PackRef:
    """The pack an ``extends:`` of file `extending` names, confined to the allowed folders.

    The allowed folders are `roots` (the folder of the pack being checked and
    those the user named), and the bundled folder for the bundled packs.
    """
    if not isinstance(text, str):
        raise PackError("`extends` must be a pack name or a path", code="E124", span=span)
    text = _checked_text(text, span)
    folder = Path(extending).parent
    candidate = Path(text) if Path(text).is_absolute() else folder / text
    if not text.endswith(PACK_SUFFIX) and (_looks_like_path(text) or not _BUNDLED_NAME.fullmatch(text)):
        raise PackError(f"`extends` names a pack: a bundled name or a `{PACK_SUFFIX}` file, not `{text}`",
                        code="E118", span=span)
    if _looks_like_path(text) and _exists(candidate):
        return PackRef(_confined(candidate, folder, roots, text, span))
    return _bundled(text, candidate, span, is_path=False)


def _checked_text(name_or_path, span) -> str:
    text = os.fspath(name_or_path)
    if not text.strip():
        raise PackError("a pack name or path must not be empty", code="E124", span=span)
    if len(text) > MAX_NAME or "\0" in text:
        raise PackError(f"a pack name or path has at most {MAX_NAME} characters and no NUL character",
                        code="E124", span=span)
    return text


def _looks_like_path(text: str) -> bool:
    return any(sep in text for sep in ("/", "\\", os.sep)) or Path(text).suffix != ""


def _exists(path: Path) -> bool:
    """True when something is at `path` (a broken or looping link counts: it is refused by kind)."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


def _confined(candidate: Path, folder: Path, roots: tuple, text: str, span) -> Path:
    """`candidate`, once its real path is inside an allowed folder and a regular ``.pack`` file."""
    real = _real_path(candidate, text, span)
    allowed = [Path(os.path.realpath(r)) for r in (*roots, folder)] + [Path(os.path.realpath(bundled_dir()))]
    if not any(real == root or root in real.parents for root in allowed):
        raise PackError(f"`extends: {text}` points outside the folders a pack may read (the checked pack's "
                        "folder, folders given with `--extends-from` or $BOARDRULE_EXTENDS_FROM, the bundled packs)",
                        code="E116", span=span,
                        hint="copy the base pack beside the pack, or allow its folder: "
                             "`boardrule check --extends-from DIR`")
    if real.suffix != PACK_SUFFIX:
        raise PackError(f"`extends: {text}` is a link to a file that is not a `{PACK_SUFFIX}` file",
                        code="E118", span=span)
    _require_regular_file(real, span)
    return candidate


def _real_path(candidate: Path, text: str, span) -> Path:
    try:
        return Path(os.path.realpath(candidate, strict=True))
    except RuntimeError:  # Python < 3.13 on a loop of links
        raise PackError(f"`{text}` is a loop of symbolic links, not a pack file", code="E117", span=span) from None
    except OSError as exc:
        what = "a loop of symbolic links" if exc.errno == 40 else "a link to nothing"
        raise PackError(f"`{text}` is {what}, not a pack file", code="E117", span=span) from None


def _require_regular_file(path: Path, span) -> None:
    """Refuse a folder, a pipe, a device or a socket by what it is, without opening it."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        what = "a loop of symbolic links" if exc.errno == 40 else "a link to nothing"
        raise PackError(f"`{path}` is {what}, not a pack file", code="E117", span=span) from None
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
    what = next((name for test, name in kinds if test(mode)), "not a regular file")
    raise PackError(f"`{path}` is {what}, not a pack file", code="E117", span=span)


def _bundled(text: str, candidate: Path, span, *, is_path: bool) -> PackRef:
    """The bundled pack `text` names (`connect4` or `connect4.pack`), or the error saying none does."""
    names = bundled_pack_names()
    stem = text[: -len(PACK_SUFFIX)] if text.endswith(PACK_SUFFIX) else text
    plain = not any(sep in text for sep in ("/", "\\", os.sep))
    if plain and not is_path and stem in names:
        note = (f"`{text}` is not a file here: using the bundled pack `{stem}`"
                if text.endswith(PACK_SUFFIX) else None)
        return PackRef(bundled_dir() / f"{stem}{PACK_SUFFIX}", bundled=True, note=note)
    listing = ", ".join(names) if names else "none"
    if is_path or _looks_like_path(text):
        pool = names + [p.name for p in candidate.parent.glob(f"*{PACK_SUFFIX}")] if candidate.parent.is_dir() \
            else names
        raise PackError(f"pack file `{text}` not found (bundled packs: {listing})", code="E121", span=span,
                        hint=did_you_mean(stem if plain else candidate.name, pool))
    raise PackError(f"unknown pack `{text}` (bundled packs: {listing})", code="E120", span=span,
                    hint=did_you_mean(text, names))
