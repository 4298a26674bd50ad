"""Exact numbers with a fractional part: `7.5` in a rule is seven and a half, exactly.

Whole numbers stay Python ints; a number written with a decimal point, and
what arithmetic makes of it, is an `Exact` (a Fraction) until it is whole
again. It prints as a decimal, never with float noise, and compares exactly.

    >>> exact("7.5") + 1, str(exact("7.5") * 2), exact("0.1") * 3 == exact("0.3")
    (Exact(17, 2), '15', True)
    >>> str(exact("7.5") - 10), str(-exact("0.25"))
    ('-2.5', '-0.25')
"""

from __future__ import annotations

from fractions import Fraction


def exact(value):
    """`value` (a Fraction, an int, or a decimal text) as an int when whole, else an Exact."""
    number = Fraction(value)
    return number.numerator if number.denominator == 1 else Exact(number)


def _lift(op):
    def forward(a, b):
        if type(b) is float:  # statistics over games (means) are floats
            return op(float(a), b)
        if not isinstance(b, (int, Fraction)):
            return NotImplemented
        return exact(op(Fraction(a), Fraction(b)))

    def backward(a, b):
        if type(b) is float:
            return op(b, float(a))
        if not isinstance(b, (int, Fraction)):
            return NotImplemented
        return exact(op(Fraction(b), Fraction(a)))
    return forward, backward


class Exact(Fraction):
    """A number that is not whole (a Fraction), written as a decimal: Exact(15, 2) is 7.5."""

    __slots__ = ()
    __add__, __radd__ = _lift(lambda a, b: a + b)
    __sub__, __rsub__ = _lift(lambda a, b: a - b)
    __mul__, __rmul__ = _lift(lambda a, b: a * b)
    __mod__, __rmod__ = _lift(lambda a, b: a % b)

    def __floordiv__(self, other):  # `/` rounds down, as for whole numbers
        return Fraction(self) // other

    def __rfloordiv__(self, other):
        return other // Fraction(self)

    def __neg__(self):
        return exact(-Fraction(self))

    def __abs__(self):
        return exact(abs(Fraction(self)))

    def __str__(self):
        return decimal_text(self)

    def __format__(self, spec):  # widths align it as text; a float format (".2f") rounds it
        return format(float(self), spec) if spec[-1:] in ("f", "e", "g", "%") else format(str(self), spec)

    def __repr__(self):
        return f"Exact({self.numerator}, {self.denominator})"


def decimal_text(number: Fraction) -> str:
    """A decimal: 7.5, -0.25; a fraction whose decimal does not end is written n/d."""
    sign, number = ("-" if number < 0 else ""), abs(number)
    whole, rest, digits = number.numerator // number.denominator, number - number.numerator // number.denominator, ""
    for _ in range(40):
        if rest == 0:
            return f"{sign}{whole}" + (f".{digits}" if digits else "")
        rest *= 10
        digit = rest.numerator // rest.denominator
        digits, rest = digits + str(digit), rest - digit
    return f"{sign}{number.numerator}/{number.denominator}"
