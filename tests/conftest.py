"""Fixtures that count what the engine does (instead of timing it), and figures printed at the end of a run."""

from __future__ import annotations

import ast
import builtins
import collections
import io
import os
import sys

import pytest


@pytest.fixture
def yaml_events(monkeypatch):
    """The events the YAML loader pulls from the parser, in order, over every parse it starts.

    A guard that stops at a limit pulls few events; one that reads the whole text first pulls
    them all.
    """
    from boardrule.dsl import loader

    pulled = []
    real = loader.yaml.parse

    def parse(*args, **kwargs):
        for event in real(*args, **kwargs):
            pulled.append(event)
            yield event

    monkeypatch.setattr(loader.yaml, "parse", parse)
    return pulled


class _Counted:
    """A file object that adds the bytes (or characters) read through it to `tally`."""

    def __init__(self, fh, tally):
        self._fh, self._tally = fh, tally

    def _count(self, data):
        self._tally["read"] += len(data) if data is not None else 0
        return data

    def read(self, *args):
        return self._count(self._fh.read(*args))

    def read1(self, *args):
        return self._count(self._fh.read1(*args))

    def readall(self):
        return self._count(self._fh.readall())

    def readline(self, *args):
        return self._count(self._fh.readline(*args))

    def readlines(self, *args):
        lines = self._fh.readlines(*args)
        self._tally["read"] += sum(map(len, lines))
        return lines

    def readinto(self, buffer):
        n = self._fh.readinto(buffer)
        self._tally["read"] += n or 0
        return n

    def __iter__(self):
        return iter(self.readline, self._fh.read(0))

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        self._fh.__enter__()
        return self

    def __exit__(self, *exc):
        return self._fh.__exit__(*exc)


@pytest.fixture
def generated_code(monkeypatch):
    """The source of every function the engine generates while the test runs (pycode.make_function),
    in the order made: what the compiler wrote, read as Python."""
    from boardrule.interpreter.compiler import pycode
    made = []
    original = pycode.make_function

    def recording(name, params, body, constants):
        made.append(ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))))
        return original(name, params, body, constants)

    monkeypatch.setattr(pycode, "make_function", recording)
    return made


@pytest.fixture
def file_reads(monkeypatch):
    """`{absolute path: {"opened": n, "read": bytes}}` for every file opened through `open`
    (builtins and io, so pathlib's reads count too) while the test runs."""
    reads = collections.defaultdict(lambda: {"opened": 0, "read": 0})
    real = io.open

    def counting_open(file, *args, **kwargs):
        fh = real(file, *args, **kwargs)
        if isinstance(file, int):
            return fh
        tally = reads[os.path.abspath(os.fspath(file))]
        tally["opened"] += 1
        return _Counted(fh, tally)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)
    return reads


def pytest_terminal_summary(terminalreporter):
    """How many fuzz inputs ran and how far each got (zero crashes, or the run failed)."""
    fuzz = sys.modules.get("test_fuzz") or sys.modules.get("tests.test_fuzz")
    outcomes = getattr(fuzz, "FUZZ_OUTCOMES", None)
    if not outcomes:
        return
    total = sum(outcomes.values())
    parts = ", ".join(f"{n} {stage}" for stage, n in sorted(outcomes.items()))
    terminalreporter.write_line(f"fuzz: {total} inputs ({parts})")
