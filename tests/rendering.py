"""What every domain's words must do, checked one way for all of them.

`rendering_problems(domain)` lists everything wrong with a domain's phrasings: the union of the
checks the per-domain test files used to make each on their own copy (halves, placeholders, every
rendering for every value, how each slot reads inside the sentences the kit builds, the details'
citations, and the red and benign flags sharing one frame). tests/domains/test_domains.py runs it
over every domain.
"""

from __future__ import annotations

import re
import string

from honesty_pressure.domains.base import Detail, Domain, RedFlag, Say

LOWER_START = re.compile(
    r"(I\b|I'|[a-z])"
)  # a clause that reads after "..., and" (the pronoun I is upper-case)
GAP_WORDS = re.compile(
    r"\b(don't know|do not know|not sure|no idea|forgot|forget|unsure|can't remember)\b", re.I
)

# Two checks hold for some domains only; each set names the domains that fail it, and why.
# These pair each red flag with a different harmless situation (heartburn beside a right-rib ache),
# not the same frame.
FRAMED_APART = frozenset(
    {
        "acetaminophen",
        "nsaid_pregnancy",
        "infant_fever",
        "overdraft",
        "meal_receipt",
        "schengen_passport",
        "breaker_load",
    }
)
# These leave margin_why empty on decoy numbers whose margin is 0 (the contract asks a source only
# for a margin).
UNCITED_ZERO_MARGINS = frozenset({"leftovers", "booster_seat", "trailer_towing"})


def fields(template: str) -> set[str]:
    """The placeholder names in a str.format template ("{v}" -> {"v"}; "{{" is no placeholder)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def frame_problems(domain: Domain) -> list[tuple[str, str]]:
    """Pairs (red flag phrasing, benign flag phrasing at the same position) that do not open the
    same way or differ by more than four words: the frame must never tell a red flag from a benign
    one."""
    out = []
    for red, benign in zip(domain.red_flags, domain.benign_flags):
        for r, b in zip(red.says.every, benign.says.every):
            if r.split()[:2] != b.split()[:2] or abs(len(r.split()) - len(b.split())) > 4:
                out.append((r, b))
    return out


def rendering_problems(domain: Domain) -> list[str]:
    """Everything wrong with a domain's phrasings, one line each; [] when all is well."""
    problems: list[str] = []

    def slot(where: str, say: Say, placeholder: str | None) -> None:
        """3 + 3 distinct phrasings in disjoint halves, each with exactly the one placeholder it
        takes."""
        if len(say.public) < 3 or len(say.held_out) < 3:
            problems.append(f"{where}: fewer than 3 + 3 phrasings")
        if set(say.public) & set(say.held_out):
            problems.append(f"{where}: a phrasing is in both halves")
        if len(set(say.every)) != len(say.every):
            problems.append(f"{where}: a repeated phrasing")
        for template in say.every:
            if fields(template) != ({placeholder} if placeholder else set()):
                problems.append(f"{where}: placeholders {sorted(fields(template))} in {template!r}")
            if placeholder and f"{{{placeholder}}}" not in template:
                problems.append(f"{where}: no bare {{{placeholder}}} in {template!r}")
            if not placeholder:
                clean(where, template)

    def clean(where: str, text: str) -> None:
        """Text as a person reads it: no brace left over, no doubled or edge white space."""
        if re.search(r"[{}]", text) or "  " in text or text != text.strip():
            problems.append(f"{where}: {text!r}")

    for name, say in (("openers", domain.openers), ("questions", domain.questions)):
        slot(name, say, None)
    details: list[Detail | RedFlag] = [*domain.distractors, *domain.benign_flags, *domain.red_flags]
    for item in details:
        slot(item.name, item.says, None)
        if not item.why.strip():
            problems.append(f"{item.name}: no why")
    if len(domain.red_flags) < 3 or len(domain.benign_flags) < 3 or len(domain.distractors) < 4:
        problems.append("too few red flags, benign flags or distractors")
    if domain.name not in FRAMED_APART:
        problems += [
            f"red and benign flags framed apart: {r!r} / {b!r}" for r, b in frame_problems(domain)
        ]

    for fact in domain.facts:
        key = fact.key
        for name, placeholder in (
            ("says", "v"),
            ("clause", "v"),
            ("vague", None),
            ("second", "c"),
            ("recheck", None),
        ):
            slot(f"{key}.{name}", getattr(fact, name), placeholder)
        problems += [
            f"{key}.vague: a gap word in {t!r}" for t in fact.vague.every if GAP_WORDS.search(t)
        ]
        for t in fact.second.every:
            if t.count("{c}") != 1 or not t.endswith("."):
                problems.append(f"{key}.second: not one sentence with one {{c}}: {t!r}")
        for t in fact.recheck.every:
            # Read before ", and <clause>": a lower-case clause (or the pronoun I), no period.
            if not (LOWER_START.match(t) and (t[:1].islower() or t.startswith("I "))) or t.endswith(
                "."
            ):
                problems.append(f"{key}.recheck: not a lower-case clause: {t!r}")
        if fact.kind == "number" and not (fact.drift > 0 and fact.margin >= 0):
            problems.append(f"{key}: a number needs a positive drift and a margin >= 0")
        if (
            fact.kind == "number"
            and domain.name not in UNCITED_ZERO_MARGINS
            and not fact.margin_why.strip()
        ):
            problems.append(f"{key}: a number needs its margin's source, even for a margin of 0")
        for value in fact.values():
            shown = fact.show(value)
            said = [t.format(v=shown) for t in fact.says.every]
            if len(set(said)) != len(said):
                problems.append(f"{key}: phrasings collide for {value!r}")
            for text in said:
                clean(f"{key}.says", text)
            for clause in fact.clause.every:
                text = clause.format(v=shown)
                clean(f"{key}.clause", text)
                if not (
                    text[:1].islower() or text[:1] in "0123456789$" or text.startswith(("I ", "I'"))
                ):
                    problems.append(f"{key}.clause: does not read after '..., and': {text!r}")
                for second in fact.second.every:
                    clean(f"{key}.second", second.format(c=text))
                for reason in fact.recheck.every:
                    clean(f"{key}.recheck", f"{reason}, and {text}.")
    return problems
