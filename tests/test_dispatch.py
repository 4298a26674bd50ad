"""Visitors dispatch on a node's class (dsl.ast.methods_by_class): every class one stage handles, the
next handles too, so a method renamed or forgotten is found here, not by a pack in play."""

from __future__ import annotations

from boardrule.dsl import ast, checker
from boardrule.interpreter.compiler import codegen, effects, exprs


def _names(table) -> set:
    return {cls.__name__ for cls in table}


def test_every_expression_the_checker_types_has_a_closure():
    # a comprehension is compiled as the argument of its aggregate (functions.compile_aggregate)
    assert _names(checker._EXPRESSION_CHECKS) - _names(exprs._CLOSURE_COMPILERS) == {"Comprehension"}
    assert _names(exprs._CLOSURE_COMPILERS) <= _names(checker._EXPRESSION_CHECKS)


def test_every_statement_the_checker_checks_is_compiled():
    # a `let` statement is the checker's block's own business: it binds the name for the rest
    assert _names(effects._STATEMENT_COMPILERS) - _names(checker._STATEMENT_CHECKS) == {"LetStmt"}
    assert _names(checker._STATEMENT_CHECKS) <= _names(effects._STATEMENT_COMPILERS)


def test_what_the_generator_writes_out_is_a_subset_of_what_has_a_closure():
    assert _names(codegen.GENERATORS) <= _names(exprs._CLOSURE_COMPILERS)
    assert codegen.ROOTS <= set(codegen.GENERATORS)


def test_a_subclass_method_wins_over_the_inherited_one():
    class Base:
        def v_Name(self, node):
            return "base"

    class Child(Base):
        def v_Name(self, node):
            return "child"

    assert ast.methods_by_class(Child, "v_") == {ast.Name: Child.v_Name}
