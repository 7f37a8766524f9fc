"""A person at a live Toppo table, played through the page at a person's pace (decision 26), and what came of it.

Shared by tests/browser/test_browser_toppo_pace.py and bench/bench_live_toppo.py.  She reads only her
page, as a person does: the claims it found for her line (one tap each, `.tp-found`), the Reveal and
Renew buttons, and the cards she holds (`data-held`, for toppo).  Between two clicks she takes a
person's time, PACE seconds (a click every 1-2 s, as measured in decision 26).

`claim_figures` reads the table's action log afterwards: who made each claim (a top or a match), and how
long after it became possible, i.e. after the later of the claimer's line filling (her last reveal) and
the last change of the display (anyone's top or match).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

PACE = (1.0, 2.0)  # seconds between her clicks
CLICK_MS = 1_500  # a button that went away meanwhile (the table moved on) is not waited for longer
TOPPO_LIMIT = 10  # ruling P5: fewer than ten cards held
STUCK_RENEWS = 6  # renewals in a row after which she proposes a new display (ruling P6)


def _visible(page, selector: str):
    found = page.locator(selector)
    return found.first if found.count() and found.first.is_visible() and found.first.is_enabled() else None


def her_next_click(page):
    """What a person at this page clicks now, and its name; (None, "") when she can only wait."""
    mine = page.locator(".tp-mine")
    if mine.count():
        held = mine.first.get_attribute("data-held")
        if held is not None and int(held) < TOPPO_LIMIT:
            toppo = page.get_by_role("button", name="Toppo!")
            if toppo.count():
                return toppo.first, "toppo"
    for selector, name in (
        (".tp-found [data-claim=top]", "top"),
        (".tp-found [data-claim=match]", "match"),
        (".tp-votes form:has(input[value*=agree_replace]) button", "agree"),  # a display nobody tops (P6)
        ("button.tp-reveal", "reveal"),
        ("button.tp-renew", "renew"),
    ):
        button = _visible(page, selector)
        if button is not None:
            return button, name
    return None, ""


def play_at_a_persons_pace(page, *, seconds: float, seed: int = 26, pace=PACE) -> dict:
    """Play from her open table page until the match is over or `seconds` have passed; her clicks by kind."""
    rng = random.Random(seed)
    clicks: dict[str, int] = {}
    renews_in_a_row = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        page.wait_for_timeout(rng.uniform(*pace) * 1000)  # she looks at the table, and reacts
        if page.locator("#table-live[data-status=finished]").count():
            break
        try:
            button, name = her_next_click(page)
            if name == "renew" and renews_in_a_row >= STUCK_RENEWS:
                proposal = _visible(page, ".tp-votes form:has(input[value*=propose_replace]) button")
                if proposal is not None:  # nobody has topped for a while: she proposes a new display (P6)
                    button, name, renews_in_a_row = proposal, "propose", 0
            renews_in_a_row = (
                renews_in_a_row + 1 if name == "renew" else 0 if name in ("top", "match") else renews_in_a_row
            )
            if button is None:
                continue  # someone else restarts play, or her page has not come back yet
            button.click(timeout=CLICK_MS)
            clicks[name] = clicks.get(name, 0) + 1
        except Exception as error:  # the page changed under her hand (a swap): she looks again
            if "Timeout" not in type(error).__name__ and "detached" not in str(error) and "Target" not in str(error):
                raise
    return clicks


@dataclass
class Figures:
    claims: dict[int, list[float]] = field(default_factory=dict)  # seat -> seconds from possible to claimed

    def count(self, seat: int) -> int:
        return len(self.claims.get(seat, []))

    def total(self) -> int:
        return sum(len(v) for v in self.claims.values())

    def share(self, seat: int) -> float:
        return self.count(seat) / self.total() if self.total() else 0.0

    @staticmethod
    def spread(times: list[float]) -> str:
        if not times:
            return "no claims"
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return f"median {statistics.median(ordered):.2f} s, p95 {p95:.2f} s"


def claim_figures(rows) -> Figures:
    """`rows`: the table's actions in order, as (seat, action dict, created_at)."""
    figures = Figures()
    line_full_at: dict[int, object] = {}
    reveals: dict[int, int] = {}
    display_at = None
    for seat, action, at in rows:
        kind = action.get("type")
        if kind == "reveal":
            reveals[seat] = reveals.get(seat, 0) + 1
            line_full_at[seat] = at  # the last reveal before a claim is the one that filled her line
        elif kind in ("top", "match"):
            since = max(t for t in (line_full_at.get(seat), display_at) if t is not None)
            figures.claims.setdefault(seat, []).append((at - since).total_seconds())
            display_at = at
        elif kind == "choose_display" or kind == "agree_replace":
            display_at = at
    return figures
