"""`domains new NAME`: a commented domain file to fill in (docs/CONTRIBUTING.md). It is valid TOML
and names every field, so `domains check` on it lists each thing still missing."""

from __future__ import annotations

import re
from typing import Final

NAME: Final = re.compile(r"[a-z][a-z0-9_]{1,39}")
"""A domain's name: lower-case letters, digits and underscores, as a Python module's name."""

_SAY: Final = """public = []    # TODO: at least 3 phrasings, used by public sets
held_out = []  # TODO: as many again, used only by `prepare --held-out`, none equal to a public one
"""

_FACT: Final = """
[[fact]]
key = ""       # TODO: lower-case, e.g. "check"
kind = "number"  # number, boolean or category
role = "decisive"  # decisive (the rule reads it) or decoy (it never changes the answer)
label = ""     # TODO: what the fact is, e.g. "what the check came to before the tip"
show = "plain"  # how a value is said: dollars, plain, minutes_as_words, {{amount = "days"}},
               # {{count = ["pill", "pills"]}}, {{either = [TRUE, FALSE]}},
               # {{template = "a {{v}}-amp breaker"}}, a [fact.show.words] table,
               # or a function of {name}.py
lo = 0         # number facts: the declared grid, lo to hi by step, in stored units
hi = 0
step = 1
margin = 0     # the measurement margin, in stored units; margin_why says where it comes from
drift = 0      # the largest plausible difference between two reports, in stored units
# choices = ["...", "..."]  # category facts: every value

[fact.says]    # whole first-person sentences with {{v}} where the value goes
{say}
[fact.clause]  # lower-case clauses with {{v}}, no final period
{say}
[fact.vague]   # the sentence without the value, as a person who did not mention it says it
{say}
[fact.second]  # a second source reporting it differently, with {{c}} where a clause goes
{say}
[fact.recheck] # lower-case reasons for new information about it in round 2
{say}"""

_DETAIL: Final = """
[[{kind}]]
name = ""      # TODO
why = ""       # TODO: {why}

[{kind}.says]
{say}"""

TEMPLATE: Final = """# {name}: a domain file for the honesty_pressure kit (docs/CONTRIBUTING.md).
# Fill in every TODO, write {name}.py beside this file for what data cannot say yet (the rule,
# the world's draw), then run:  python -m honesty_pressure domains check {name}.toml
# Any text may be wrapped over several lines in a '''...''' string: the lines join with one space.

name = "{name}"
code = ""      # TODO: 3 to 5 lower-case letters, unique among the domains
area = ""      # TODO: money, health, home, travel, ...
title = ""     # TODO: the decision, as a title
doubt = ""     # optional: the cited guidance that in doubt one holds back (empty: only ASK)

[menu]
proceed = ""        # TODO: the go-ahead option, as the menu says it
hold_back = ""      # TODO: the cautious option
escalate = ""       # TODO: the urgent-help option
push_proceed = ""   # TODO: the go-ahead as a bare verb phrase ("keep the leftovers")
push_hold_back = "" # TODO: the cautious action as a bare verb phrase
risk = ""           # TODO: the go-ahead as a gerund phrase ("eating the leftovers tomorrow")

[python]
# TODO: the functions of {name}.py beside this file, by name:
# world = "world"          # Draw -> every fact's value, drawn together, unless [world] says it
#                          # (steps: total = "between(60, 89)", check = "total - tip", ...)
# rule = "rule"            # facts -> "proceed" or "hold_back", monotone in each number fact,
#                          # unless the [rule] table below says it
# coherent = "coherent"    # optional: facts -> the joint constraints they break
# also = "also"            # optional: facts -> codes practice accepts beside the rule's
# once_seen = "once_seen"  # optional: facts whose report makes urgent care acceptable

# [rule]                   # the rule as a decision table instead (docs/CONTRIBUTING.md):
# table = [
#     {{ when = "check + tip >= 75", action = "hold_back" }},
#     {{ action = "proceed" }},
# ]

[openers]
{say}
[questions]
{say}{facts}

[[threshold]]
name = ""      # TODO: the constant the rule uses
value = ""     # TODO: its value, in words
source = ""    # TODO: the citation, a link, and the quoted line it rests on
practice = ""  # optional: how practitioners apply it, where that differs
{details}
[docs]
notes = []     # paragraphs for docs/DOMAINS.md: the practice reading, margins, what is left out
# pairs_below_target = "..."  # under 90 % decisive minimal pairs only: why no more can be
"""

_WHY = {
    "distractor": "why it does not change the answer",
    "red_flag": "the cited guidance that makes urgent help right",
    "benign_flag": "why it sounds worrying but changes nothing",
}


def scaffold(name: str) -> str:
    """The scaffold for a domain called `name` (already checked against NAME): two decisive facts
    and two decoys, four distractors, three red and three benign flags, all empty."""
    say = _SAY
    facts = "".join(_FACT.format(name=name, say=say) for _ in range(4))
    details = "".join(
        _DETAIL.format(kind=kind, why=_WHY[kind], say=say)
        for kind, count in (("distractor", 4), ("red_flag", 3), ("benign_flag", 3))
        for _ in range(count)
    )
    return TEMPLATE.format(name=name, say=say, facts=facts, details=details)
