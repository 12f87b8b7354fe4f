"""Transcripts in the report: a few items per group, chosen by a seeded hash, never by holding all.

Each item's rank is SHA-256(seed, item id); a group shows its lowest-ranked items. The choice is
made one record at a time with a bounded list per group, so it works on a stream, and because
the rank is global the same items serve many groups (a family's example is often also its
domain's), which keeps the page small. Every reply, in full, stays in the run folder's
replies.jsonl, line for line beside records.jsonl.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import html
import json
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ..core.canonical import jsonl
from .axes import NEGATIVE_CONTROL_FAMILIES, component, direction, paired_member
from .score import Record
from .summary import category

PER_GROUP: Final = 2
"""Worst items listed per group in summary.json's `examples` (a table row, a chart bar, a cell)."""
WORST_PER_GROUP: Final = 25
"""Items per group the explorer embeds when a run is too large to embed whole."""
MAX_SHOWN: Final = 4000
"""Characters of one message shown in the page; the rest is in replies.jsonl / the request file."""
REPLIES_FILE: Final = "replies.jsonl"


def item_id(packet_id: str, sample: int) -> str:
    return f"{packet_id}#{sample}"


def anchor(item: str) -> str:
    return "i-" + item.replace("#", "-s")


def group_anchor(group: str) -> str:
    return "g-" + group


def rank(seed: int, item: str) -> str:
    return hashlib.sha256(f"transcript\x1f{seed}\x1f{item}".encode()).hexdigest()


class Sampler:
    """The `per_group` lowest-ranked items of every group, fed one item at a time."""

    def __init__(self, seed: int, per_group: int = PER_GROUP) -> None:
        self._seed = seed
        self._k = per_group
        self._groups: dict[str, list[tuple[str, str]]] = {}
        self._bars: dict[tuple[str, ...], tuple[int, tuple[str, str] | None]] = {}
        self._changes = 0

    def offer(self, item: str, groups: Iterable[str]) -> None:
        self._offer((rank(self._seed, item), item), groups)

    def _offer(self, key: tuple[str, str], groups: Iterable[str]) -> None:
        for group in groups:
            kept = self._groups.setdefault(group, [])
            if len(kept) < self._k or key < kept[-1]:
                bisect.insort(kept, key)
                del kept[self._k :]
                self._changes += 1

    def offer_ranked(self, rank_: str, item: str, groups: tuple[str, ...]) -> None:
        """`offer` with the item's rank already made, for a tuple of groups many items share: the
        highest rank any of them would still take is remembered until one of them changes, so an
        item none of them wants costs one comparison."""
        changes, bar = self._bars.get(groups, (-1, None))
        if changes != self._changes:
            bar = self._bar(groups)
            self._bars[groups] = (self._changes, bar)
        if bar is None or (rank_, item) < bar:
            self._offer((rank_, item), groups)

    def _bar(self, groups: tuple[str, ...]) -> tuple[str, str] | None:
        """The largest of the groups' current thresholds; None while one is not full."""
        bar: tuple[str, str] | None = None
        for group in groups:
            kept = self._groups.get(group)
            if kept is None or len(kept) < self._k:
                return None
            if bar is None or kept[-1] > bar:
                bar = kept[-1]
        return bar

    def chosen(self) -> dict[str, list[str]]:
        return {group: [item for _, item in kept] for group, kept in sorted(self._groups.items())}


def groups_of(record: Record, key: Mapping[str, object]) -> list[str]:
    """Every report group an item belongs to; the report's rows link to these names."""
    fork = key.get("fork")
    prefix = "r1" if fork is None else "f"
    out = [f"{prefix}.domain.{key.get('domain')}", f"{prefix}.state.{key.get('state')}"]
    if record.reason is not None:
        out += [f"{prefix}.reason.{record.reason}", f"{prefix}.unscorable"]
    part = component(key)
    if part is not None:
        out.append(f"axis.{part[0]}")
    pair = paired_member(key)
    if pair is not None:
        out.append(f"axis.{pair[0]}")
    if fork is None:
        out.append(f"r1.family.{key.get('family')}")
        if key.get("family") in NEGATIVE_CONTROL_FAMILIES:
            out.append("r1.false_alarm")
        return out
    out.append(f"f.kind.{fork}")
    if fork == "pressure":
        d = direction(key)
        out += [
            f"f.pressure.{key.get('pressure')}",
            f"f.direction.{d}",
            f"f.pressure.{key.get('pressure')}.{d}",
        ]
    proceed = key.get("proceed_code")
    out.append(
        f"f.transition.{fork}.{category(key.get('parent_decision'), proceed)}.{category(record.decision, proceed)}"
    )
    return out


# ---- the items ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """One sampled item as the page shows it."""

    item: str
    messages: tuple[tuple[str, str], ...]
    reply: str | None
    error: str | None
    record: Record
    key: Mapping[str, object]
    line: int
    """Its line in replies.jsonl (and records.jsonl)."""
    groups: tuple[str, ...] = ()
    """The report groups it belongs to (groups_of)."""
    request: Mapping[str, object] | None = None
    """The request it answered, whose messages are its conversation when `messages` is empty (the
    explorer reads them there, not copied into tuples first: a run has many)."""


def reply_lines(rows: Iterable[tuple[Record, int, str | None, str | None, str | None]]) -> bytes:
    """replies.jsonl: one line per record, in records.jsonl's order, written one at a time.
    Each row is (record, round, reply, runner error, model)."""
    return jsonl(
        {
            "packet_id": record.packet_id,
            "sample": record.sample,
            "round": round_,
            "reply": reply,
            "error": error,
            "model": model,
            "reply_sha256": record.reply_sha256,
        }
        for record, round_, reply, error, model in rows
    )


def _clip(text: str) -> str:
    if len(text) <= MAX_SHOWN:
        return text
    return (
        text[:MAX_SHOWN]
        + f"\n[… {len(text) - MAX_SHOWN:,} more characters: the whole text is in the run folder]"
    )


SEVERITY: Final = {
    "forbidden": "0",
    "refused": "1",
    "unscorable": "2",
    "other": "3",
    "acceptable": "4",
}
"""The order "worst first" for the explorer of a run too large to embed whole."""

COMPRESSION: Final = 1
"""zlib level of the explorer's data: level 1 is several times faster than the default 6 and the
page only somewhat larger (texts repeat across items, which any level finds)."""
FIELDS: Final = (
    "id",
    "line",
    "f",
    "k",
    "p",
    "d",
    "m",
    "s",
    "v",
    "r",
    "c",
    "pc",
    "a",
    "x",
    "msgs",
    "rep",
    "err",
    "g",
)
"""An explorer item's fields, in the order of its array: id, line in replies.jsonl, family, fork
kind, pressure type, direction, domain, evidence state, verdict, reason, decision, first decision,
acceptable codes, forbidden codes, messages [role, text], reply text, runner error, groups.
Texts are numbers into the payload's `strings`, groups into its `groups`."""


def explorer_payload(items: Iterable[Item], titles: Mapping[str, str]) -> str:
    """Every given item as the explorer needs it, in JSON compressed with zlib (the browser's
    DecompressionStream("deflate") reads it) and base64-encoded: base64 has no "<", so no reply
    can close the script element that holds it. Message texts are stored once (items of one
    source share their system prompt and ledger) and items point at them by number."""
    texts: list[str] = []
    by_head: dict[tuple[int, str], list[int]] = {}
    group_index = {name: i for i, name in enumerate(titles)}

    def ref(text: str) -> int:
        # Keyed by length and head, confirmed by comparing the whole text: hashing every long
        # message of every item (each fork repeats its parent's) cost more than the rest.
        head = (len(text), text[:128])
        same = by_head.get(head)
        if same is None:
            same = by_head[head] = []
        for index in same:
            if texts[index] == text:
                return index
        same.append(len(texts))
        texts.append(text)
        return len(texts) - 1

    items = list(items)
    # The texts are numbered in an order of their own, before the items are written in theirs:
    # see _beside. Each item's numbers are kept for its row (ref compares whole texts).
    conversations: list[list[tuple[str, int]]] = [[] for _ in items]
    replies: list[int | None] = [None] * len(items)
    for i in sorted(range(len(items)), key=lambda i: _beside(items[i])):
        conversations[i] = _conversation(items[i], ref)
        reply = items[i].reply
        replies[i] = ref(reply) if reply is not None else None
    rows = []
    for item, conversation, reply_ref in zip(items, conversations, replies):
        r, key = item.record, item.key
        fork = key.get("fork")
        push = direction(key)
        rows.append(
            (
                item.item,
                item.line,
                key.get("family"),
                fork if fork is not None else "round 1",
                key.get("pressure"),
                push.replace("_", " ") if push else None,
                key.get("domain"),
                key.get("state"),
                r.verdict,
                r.reason,
                r.decision,
                key.get("parent_decision"),
                key.get("acceptable") or [],
                key.get("forbidden") or [],
                conversation,
                reply_ref,
                None if item.reply is not None else (item.error or "missing reply"),
                [group_index[g] for g in item.groups if g in group_index],
            )
        )
    data = {
        "fields": FIELDS,
        "strings": [_clip(text) for text in texts],
        "groups": [[name, title] for name, title in titles.items()],
        "items": rows,
    }
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, COMPRESSION)).decode("ascii")


def _beside(item: Item) -> tuple[str, str]:
    """Where an item's texts go in the payload's `strings`: a source's side by side, and a
    parent's forks' side by side within it, as they were when ids began with the source and the
    parent id. They differ by a sentence, so the compressor's window finds them; numbered in the
    order of construct v4's opaque ids, a source's texts are scattered over the whole run (the
    full demo's report grew from 2.4 to 4.6 MB). The items themselves keep records.jsonl's order;
    the sort is stable."""
    return str(item.key.get("source_id", "")), str(item.key.get("parent") or item.item)


def _conversation(item: Item, ref: Callable[[str], int]) -> list[tuple[str, int]]:
    """[role, text number] of each message of the item's conversation."""
    if item.messages or item.request is None:
        return [(role, ref(content)) for role, content in item.messages]
    msgs = item.request.get("messages")
    if not isinstance(msgs, list):
        return []
    return [
        (str(m.get("role")), ref(c if isinstance(c := m.get("content"), str) else str(c)))
        for m in msgs
        if isinstance(m, dict)
    ]


FILTERS: Final = (
    ("family", "f"),
    ("fork kind", "k"),
    ("pressure type", "p"),
    ("direction", "d"),
    ("domain", "m"),
    ("verdict", "v"),
)
"""The explorer's filters: (label, the item field)."""


def explorer_html(payload: str, *, rest: str, complete: bool) -> str:
    """The explorer: filters and a search box over the embedded items, drawn by the inline
    script; without JavaScript it says where the items are."""
    controls = "".join(
        f'<label>{html.escape(name)}<select data-field="{field}"><option '
        'value="">any</option></select></label>'
        for name, field in FILTERS
    )
    return (
        '<div id="x" class="explorer">'
        '<noscript><p class="banner warn">The explorer needs JavaScript to filter and show the '
        f"items; every reply is in {html.escape(rest)}, "
        "line for line beside records.jsonl.</p></noscript>"
        f'<div class="x-controls" hidden>{controls}'
        '<label>search id or text<input type="search" id="x-q" placeholder="e.g. amps-000 or a '
        'phrase"></label>'
        '<button type="button" id="x-reset">clear filters</button></div>'
        '<p class="meta x-live"><span id="x-group"></span> <span id="x-status" '
        'aria-live="polite"></span></p>'
        '<div id="x-list"></div><button type="button" id="x-more" hidden>show more</button>'
        '<script type="application/octet-stream" id="x-data" '
        f'data-complete="{str(complete).lower()}" '
        f'data-rest="{html.escape(rest, quote=True)}">{payload}</script>'
        f"<script>{EXPLORER_JS}</script></div>"
    )


EXPLORER_JS: Final = r"""(function(){
var data=document.getElementById('x-data'),status=document.getElementById('x-status'),list=document.getElementById('x-list'),
more=document.getElementById('x-more'),q=document.getElementById('x-q'),chip=document.getElementById('x-group'),box=document.querySelector('.x-controls');
var PAGE=50,D=null,low=[],group=null,shown=0,hits=[];
function say(t){status.textContent=t}
function rest(){return data.getAttribute('data-rest')}
say('Unpacking the items…');
if(typeof DecompressionStream==='undefined'){say('This browser cannot unpack the embedded items (no DecompressionStream); every item is in '+rest()+'.');return}
var bin=atob(data.textContent.replace(/\s+/g,'')),u=new Uint8Array(bin.length);
for(var i=0;i<bin.length;i++)u[i]=bin.charCodeAt(i);
new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream('deflate'))).text().then(function(t){start(JSON.parse(t))},function(e){say('The embedded items could not be read ('+e+'); every item is in '+rest()+'.')});
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
function anchor(id){return 'i-'+id.replace('#','-s')}
function lower(i){return low[i]||(low[i]=D.strings[i].toLowerCase())}
function selects(){return box.querySelectorAll('select')}
function start(d){D=d;var F=d.fields;D.items=d.items.map(function(a){var o={};for(var i=0;i<F.length;i++)o[F[i]]=a[i];return o});
 selects().forEach(function(s){var f=s.getAttribute('data-field'),n={};D.items.forEach(function(it){var v=it[f];if(v!=null)n[v]=(n[v]||0)+1});
  Object.keys(n).sort().forEach(function(v){var o=el('option',null,v.replace(/_/g,' ')+' ('+n[v]+')');o.value=v;s.appendChild(o)});
  if(!Object.keys(n).length)s.parentNode.hidden=true;s.addEventListener('change',draw)});
 var timer=null;q.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(draw,150)});
 document.getElementById('x-reset').addEventListener('click',function(){selects().forEach(function(s){s.value=''});q.value='';group=null;draw()});
 more.addEventListener('click',function(){page()});
 box.hidden=false;addEventListener('hashchange',route);if(!route())draw()}
function fragment(){var h=location.hash.slice(1);try{return decodeURIComponent(h)}catch(e){return h}}
function route(){var h=fragment();
 if(h.indexOf('g-')===0){var name=h.slice(2);for(var i=0;i<D.groups.length;i++)if(D.groups[i][0]===name){group=i;draw();jump();return true}}
 if(h.indexOf('i-')===0){for(var j=0;j<D.items.length;j++)if(anchor(D.items[j].id)===h){q.value=D.items[j].id;group=null;draw();var c=document.getElementById(h);if(c){c.open=true;c.scrollIntoView()}return true}}
 return false}
function jump(){document.getElementById('x').scrollIntoView()}
function match(it,f,text){for(var k in f)if(String(it[k])!==f[k])return false;
 if(group!==null&&it.g.indexOf(group)<0)return false;if(!text)return true;
 if(it.id.toLowerCase().indexOf(text)>=0)return true;if(it.rep!=null&&lower(it.rep).indexOf(text)>=0)return true;
 if(it.err!=null&&it.err.toLowerCase().indexOf(text)>=0)return true;
 for(var m=0;m<it.msgs.length;m++)if(lower(it.msgs[m][1]).indexOf(text)>=0)return true;return false}
function draw(){var f={};selects().forEach(function(s){if(s.value)f[s.getAttribute('data-field')]=s.value});
 var text=q.value.trim().toLowerCase();hits=D.items.filter(function(it){return match(it,f,text)});
 chip.textContent='';if(group!==null){chip.appendChild(el('b',null,'group: '+D.groups[group][1]));var x=el('button',null,'×');x.type='button';x.title='any group';
  x.addEventListener('click',function(){group=null;draw()});chip.appendChild(x)}
 list.textContent='';shown=0;page()}
function page(){var end=Math.min(hits.length,shown+PAGE);for(;shown<end;shown++)list.appendChild(card(hits[shown]));
 say(hits.length+' of '+D.items.length+' items match'+(hits.length>shown?'; showing the first '+shown:'')+(data.getAttribute('data-complete')==='true'?'':' (the embedded items only; the rest are in '+rest()+')')+'.');
 more.hidden=shown>=hits.length}
function why(it){var a=it.a.join(', ')||'none',x=it.x.join(', ')||'none';
 if(it.r==='refused_parent')return 'unscorable (refused parent): its parent reply was a refusal, so this fork was never sent; it counts as not acceptable and never makes the run incomplete';
 if(it.v==='unscorable')return 'unscorable ('+String(it.r||'no reason').replace(/_/g,' ')+'): no single decision could be read, so it counts as not acceptable';
 if(it.v==='refused')return 'refused: the model declined to answer; a refusal is its answer, counted on its own and never acceptable';
 if(it.v==='acceptable')return 'decision '+it.c+' is one of the key\'s acceptable codes ('+a+')';
 if(it.v==='forbidden')return 'decision '+it.c+' is one of the key\'s forbidden codes ('+x+'): the harm this item tests';
 return 'decision '+it.c+' is neither acceptable ('+a+') nor forbidden ('+x+')'}
function badge(v){return el('span','v v-'+v,v)}
function card(it){var d=el('details','item');d.id=anchor(it.id);var s=el('summary');
 s.appendChild(badge(it.v));s.appendChild(document.createTextNode(' '));s.appendChild(el('code',null,it.id));
 s.appendChild(document.createTextNode(' · '+[it.k==='round 1'?it.f:it.k,it.p,it.d,it.m].filter(Boolean).join(', ').replace(/_/g,' ')+' · decision '+(it.c||'—')));
 d.appendChild(s);d.addEventListener('toggle',function(){if(d.open&&!d.filled){fill(d,it);d.filled=true}});return d}
function fill(d,it){var last=it.msgs.length-1;
 it.msgs.forEach(function(m,i){var role=m[0],text=D.strings[m[1]];
  if(role==='system'){var s=el('details');s.appendChild(el('summary','role','system prompt (the instructions and the menu)'));s.appendChild(el('pre',null,text));d.appendChild(s);return}
  d.appendChild(el('div','role',role==='user'&&i===last&&i>1?'follow-up':role));d.appendChild(el('pre',null,text))});
 var refused=it.rep==null&&it.v==='refused';d.appendChild(el('div','role',refused?'refusal (scored)':'reply (scored)'));
 d.appendChild(el('pre',null,it.rep!=null?D.strings[it.rep]:refused?it.err:'[no reply: '+it.err+']'));
 var p=el('p','meta');p.appendChild(document.createTextNode('parsed decision: '));p.appendChild(el('b',null,it.c||'—'));
 p.appendChild(document.createTextNode(' · verdict: '));p.appendChild(badge(it.v));
 p.appendChild(document.createTextNode(' · key: acceptable '+(it.a.join(', ')||'none')+'; forbidden '+(it.x.join(', ')||'none')+' · evidence state '+it.s+(it.pc?' · first decision '+it.pc:'')));d.appendChild(p);
 d.appendChild(el('p','meta why','why: '+why(it)));d.appendChild(el('p','meta','full reply: '+rest()+' line '+it.line))}
})();"""
