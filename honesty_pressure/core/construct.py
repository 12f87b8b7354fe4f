"""The construct's vocabulary and data types: ledgers, packets, keys (DESIGN.md sections 2 and 3).

Closed vocabularies are `Literal`s so that mypy rejects a misspelt family or state, and the
records are frozen, slotted, keyword-only dataclasses: a packet, once built, cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

Value = bool | int | str
"""A fact's value: numbers are integers in the fact's stored unit (no floats are ever hashed)."""

Kind = Literal["number", "boolean", "category"]
Role = Literal["decisive", "decoy"]
Action = Literal["proceed", "hold_back"]
EvidenceState = Literal["sufficient", "insufficient", "contradiction", "escalation"]
Family = Literal[
    "original",
    "paraphrase",
    "distractor",
    "missing",
    "alternative",
    "alternative_hard",
    "conflicting",
    "red_flag",
    "vague_decoy",
    "conflicting_decoy",
    "benign_flag",
]
Layer = Literal["quick", "full"]
Surface = Literal["public", "held_out", "held_out_wording"]
"""Which half of every sentence slot's phrasings a packet set uses (DESIGN.md section 8), and
which value grid (6b): `public` both public, `held_out` both held out (`prepare --held-out`).
`held_out_wording` is the held-out phrasings on the public value grid: an audit surface only, built
by the learned audit to tell what new wording takes off a learner from what new values take off
(docs/SELFCHECK.md); `prepare` does not offer it, since a set showing public values is no private
set."""
Split = Literal["dev", "test"]

ForkKind = Literal["neutral", "pressure", "evidence_change", "evidence_confirm"]
PressureType = Literal[
    "financial_barrier",
    "social_pressure",
    "autonomy_assertion",
    "polite_disengagement",
    "improvement_signal",
    "rational_framing",
    "authority_trust",
    "provider_trust",
    "system_distrust",
    "prior_experience",
]
Protocol = Literal["default", "full", "sustained"]

FAMILIES: Final[tuple[Family, ...]] = get_args(Family)
FORK_KINDS: Final[tuple[ForkKind, ...]] = get_args(ForkKind)
PRESSURE_TYPES: Final[tuple[PressureType, ...]] = get_args(PressureType)
PROTOCOLS: Final[tuple[Protocol, ...]] = get_args(Protocol)
CONTROL_FAMILIES: Final[tuple[Family, ...]] = ("original", "paraphrase", "distractor")
TWIN_FAMILIES: Final[tuple[Family, ...]] = (
    "missing",
    "alternative",
    "alternative_hard",
    "conflicting",
    "red_flag",
)
NEGATIVE_CONTROLS: Final[tuple[Family, ...]] = ("vague_decoy", "conflicting_decoy", "benign_flag")
"""Each mirrors the frame of a twin family (missing, conflicting, red_flag) on a detail that does
not matter, so asking, escalating or holding back is right only when the facts say so."""
LAYERS: Final[tuple[Layer, ...]] = get_args(Layer)
SURFACES: Final[tuple[Surface, ...]] = get_args(Surface)


def held_out_phrasings(surface: Surface) -> bool:
    """Whether a set of this surface uses the held-out half of every sentence slot."""
    return surface != "public"


def value_grid(surface: Surface) -> Literal["public", "held_out"]:
    """The value grid a set of this surface draws from (domains.base.grid_domain)."""
    return "held_out" if surface == "held_out" else "public"


EVIDENCE_FAMILIES: Final[tuple[Family, ...]] = TWIN_FAMILIES + NEGATIVE_CONTROLS
"""The families of the evidence-tracking axis: the twins and their negative controls."""
ACTIONS: Final[tuple[Action, ...]] = get_args(Action)
STATES: Final[tuple[EvidenceState, ...]] = get_args(EvidenceState)

FactItems = tuple[tuple[str, Value], ...]
"""A ledger's facts as (key, value) pairs sorted by key: hashable, and canonical by construction."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Ledger:
    """One small world: the facts a person states, plus at most one reported complication.

    A twin differs from its source's ledger in exactly one of: one fact's value, one fact's
    presence, the `conflict` (a second, credible value reported for one fact), the `red_flag`,
    the `benign_flag` (a worrying-sounding detail that is not urgent) or the `distractor`.
    """

    source_id: str
    domain: str
    facts: FactItems
    conflict: tuple[str, Value] | None = None
    red_flag: int | None = None
    distractor: int | None = None
    benign_flag: int | None = None

    def fact_dict(self) -> dict[str, Value]:
        return dict(self.facts)

    def to_json(self) -> dict[str, object]:
        return {
            "facts": dict(self.facts),
            "conflict": list(self.conflict) if self.conflict else None,
            "red_flag": self.red_flag,
            "distractor": self.distractor,
            "benign_flag": self.benign_flag,
        }

    @classmethod
    def from_json(cls, source_id: str, domain: str, data: object) -> Ledger:
        """The inverse of to_json; raises ValueError on a record of the wrong shape."""
        if not isinstance(data, dict) or not isinstance(data.get("facts"), dict):
            raise ValueError("a ledger needs a 'facts' object")
        facts = data["facts"]
        if not all(isinstance(v, (bool, int, str)) for v in facts.values()):
            raise ValueError("fact values must be integers, booleans or strings")
        conflict = data.get("conflict")
        if conflict is not None and not (
            isinstance(conflict, list) and len(conflict) == 2 and isinstance(conflict[0], str)
        ):
            raise ValueError("'conflict' must be [key, value] or null")
        red_flag, distractor, benign = (
            data.get("red_flag"),
            data.get("distractor"),
            data.get("benign_flag"),
        )
        for name, slot in (
            ("red_flag", red_flag),
            ("distractor", distractor),
            ("benign_flag", benign),
        ):
            if slot is not None and (isinstance(slot, bool) or not isinstance(slot, int)):
                raise ValueError(f"'{name}' must be an index or null")
        return cls(
            source_id=source_id,
            domain=domain,
            facts=tuple(sorted(facts.items())),
            conflict=(conflict[0], conflict[1]) if conflict else None,
            red_flag=red_flag,
            distractor=distractor,
            benign_flag=benign,
        )


Extra = Literal["hold_back", "escalate"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Expected:
    """What the rule says about a ledger: the evidence state, the action where settled, the fact to
    ask for where not, and the codes practice also accepts (`extra`), so one key function serves
    round 1 and every later round (DESIGN.md section 3)."""

    state: EvidenceState
    action: Action | None = None
    ask: str | None = None
    extra: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Edit:
    """The one change a twin makes to its source's ledger: which slot, from what, to what."""

    slot: str
    before: Value | list[Value] | None
    after: Value | list[Value] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MenuItem:
    code: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Phrasing:
    """Every seeded choice about wording for one source, stored so nothing is re-derived.

    `pick` maps a sentence slot (opener, question, a fact key, conflict) to a template index;
    `alt` holds the paraphrase's indices, each different from `pick`'s. `extra_at` is where
    a distractor or red-flag sentence goes among the fact sentences.
    """

    order: tuple[str, ...]
    pick: tuple[tuple[str, int], ...]
    alt: tuple[tuple[str, int], ...]
    extra_at: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """One source item: the original ledger, its menu, its phrasing, and its balancing draws."""

    source_id: str
    domain: str
    split: Split
    ledger: Ledger
    proceed_is_a: bool
    ask_keys: tuple[str, ...]
    phrasing: Phrasing


@dataclass(frozen=True, slots=True, kw_only=True)
class Packet:
    """One round-1 request plus its key (the key never goes to the runner)."""

    packet_id: str
    source_id: str
    family: Family
    ledger: Ledger
    system: str
    user: str
    menu: tuple[MenuItem, ...]
    expected: Expected
    acceptable: tuple[str, ...]
    forbidden: tuple[str, ...]
    edit: Edit | None
    minimal_pair: bool | None = None
    """Crossing twins only: whether this twin and its source's original are a decisive minimal pair
    (pairs.premise); None for every other family."""


Format = Literal["native", "openai-batch", "anthropic-batch", "inspect", "chat-jsonl"]
FORMATS: Final[tuple[Format, ...]] = get_args(Format)

Reason = Literal[
    "no_decision_line",
    "conflicting_lines",
    "unknown_code",
    "unlisted_key",
    "empty_reply",
    "runner_error",
    "missing_reply",
    "refused_parent",
]
"""Why an item has no decision. `refused_parent`: a fork never sent because its parent's reply was
a refusal: the model's own choice, so never a runner failure that `run --retry-failed` could mend
or `--max-unscorable` counts (docs/FORKS.md, point 7)."""
REASONS: Final[tuple[Reason, ...]] = get_args(Reason)

Verdict = Literal["acceptable", "forbidden", "other", "refused", "unscorable"]
"""`refused`: the model declined (a refusal field, a refusal stop reason, a content filter). It is
the model's answer, not the runner's failure: not acceptable in every denominator, counted on its
own, never resent by `run --retry-failed` unless `--retry-refused` (docs/SCORING.md, "Retries")."""


Usage = tuple[int, int]
"""(input tokens, output tokens) of one reply, as the provider counted them (docs/SCORING.md,
"Usage")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Envelope:
    """One reply as an importer read it, before it is matched to a packet.

    `ref` is the id as written in the file (an exported, set-bound id, or a bare packet id);
    `reply` is None when the runner reported an error instead (then `error` says what). Formats
    that echo the request (chat JSONL, Inspect logs) fill `request_messages`, native envelopes
    fill `request_sha256`; the scorer checks whichever is present against the packet.
    """

    ref: str
    reply: str | None
    error: str | None
    request_sha256: str | None
    request_messages: tuple[tuple[str, str], ...] | None
    model: str | None
    sample: int
    file: str
    line: int
    usage: Usage | None = None
    """(input tokens, output tokens) where the reply carried the provider's token counts."""
