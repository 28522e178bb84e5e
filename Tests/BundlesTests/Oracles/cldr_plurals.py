#!/usr/bin/env python3
"""Oracle for CLDRPluralAgreementTests: CLDR's plural category (via Babel) of every case, for
every locale Babel knows. Prints `locale<TAB>categories`, one letter per case in the order the
cases are given on standard input (z zero, o one, t two, f few, m many, x other).

Doubles are written out the way ICU reads a double, independently of Stasis: the shortest
round-trip decimal (`repr`), exponent expanded, and an all-zero fraction dropped (`2.0` → `2`).
"""
import sys
from decimal import Decimal

from babel import localedata
from babel.core import Locale, get_cldr_version

LETTER = {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}


def number(case):
    kind, text = case.split(":", 1)
    if kind == "int":
        return int(text)
    if kind == "decimal":
        return Decimal(text)
    plain = format(Decimal(repr(float(text))), "f")
    if "." in plain and set(plain.split(".")[1]) == {"0"}:
        plain = plain.split(".")[0]
    return Decimal(plain)


def main():
    cases = [number(line.strip()) for line in sys.stdin if line.strip()]
    print("cldr\t" + get_cldr_version())
    for identifier in sorted(localedata.locale_identifiers()):
        rule = Locale.parse(identifier).plural_form
        print(identifier + "\t" + "".join(LETTER[rule(value)] for value in cases))


if __name__ == "__main__":
    main()
