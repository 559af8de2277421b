"""What The First War shows: each page's view, the legal moves, and one sentence for each
action in the history."""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.first_war import conflict, economy, hexmap, rules
from companion.games.first_war.movement import allowed_steps, face_down_left, lake_between
from companion.games.first_war.state import (
    LEVELS,
    TERRAINS,
    Activate,
    Card,
    Cover,
    Done,
    Emergency,
    Finish,
    Move,
    Retreat,
    Reveal,
    Stacks,
    State,
    Wound,
)

ROMAN = ("I", "II", "III", "IV")


def card_name(c: Card) -> str:
    return f"{ROMAN[c.level - 1]}-{c.index + 1}"


def _reveal_for(state: State, to) -> str:
    """A terrain a face-down tile may turn up as (the play-outs' choice: land first)."""
    if to in state.terrain:
        return ""
    return next(
        t for t in ("plain", "forest", "mountain", "fields", "lake") if face_down_left(state, t) > 0
    )


def _moves(state: State, seat: int) -> list:
    hunters = state.phase == "hunters"
    out = []
    for at, pieces in sorted(state.sides[seat].cells.items()):
        for p in {
            (p.kind, p.wounded)
            for p in pieces
            if not p.stopped
            and (p.kind == "hunter") == hunters
            and p.steps < allowed_steps(state, seat, p.kind)
        }:
            targets = set(hexmap.neighbours(at)) | {
                c
                for c in hexmap.cells()
                if not hexmap.adjacent(at, c) and c != at and lake_between(state, at, c)
            }
            for to in sorted(targets):
                if state.terrain.get(to) == "lake":
                    continue
                out.append(
                    Move(seat, hexmap.name(at), hexmap.name(to), p[0], p[1], _reveal_for(state, to))
                )
    return out


def legal_actions(state: State, seat: int | None) -> list:
    """The moves of play now for ``seat`` (moves into face-down tiles name a terrain that
    may still be there; any may be named)."""
    who = rules.actor(state)
    if state.ended or seat is None or seat != who:
        return []
    out: list = []
    if state.phase == "emergency":
        return [Emergency(seat), Done(seat)]
    if state.phase in ("hunters", "others"):
        from companion.games.first_war.movement import move

        for a in _moves(state, seat):
            try:
                move(state, a)
            except IllegalAction:  # an illegal candidate: left out
                continue
            out.append(a)
        return [*out[:40], Done(seat)]
    if state.phase == "conflict" and state.battle is not None:
        b = state.battle
        if b.retreats:
            s, at, i = b.retreats[0]
            piece = state.pieces(s, at)[i]
            return [
                Retreat(s, i, hexmap.name(to), _reveal_for(state, to))
                for to in conflict.retreat_options(state, s, at, piece)
            ]
        if not b.stacks:
            n = len(state.pieces(seat, b.cell))
            return [Stacks(seat, (0,) * n), Stacks(seat, tuple(range(n)))]
        mine = conflict.attackers(state, b.cell)
        k = len(b.stacks)
        return [Cover(seat, tuple(i % k for i in range(len(mine))))]
    if state.phase == "food" and state.wounds_owed:
        side = state.sides[seat]
        healthy = any(not p.wounded for ps in side.cells.values() for p in ps)
        return [
            Wound(seat, hexmap.name(at), i)
            for at, ps in sorted(side.cells.items())
            for i, p in enumerate(ps)
            if p.wounded != healthy
        ][:8]
    if state.phase == "research":
        side = state.sides[seat]
        for level, n in enumerate(LEVELS, start=1):
            for i in range(n):
                c = Card(level, i)
                if c not in side.revealed and level <= state.points:
                    out.append(Reveal(seat, level, i))
                elif c in side.revealed and c not in side.active:
                    out.append(Activate(seat, level, i, min(state.points, level)))
        legal = []
        for a in out:
            try:
                rules.apply(state, a)
                legal.append(a)
            except IllegalAction:
                continue
        return [*legal, Done(seat)]
    return []


def _pieces(state: State, seat: int) -> dict:
    return {
        hexmap.name(at): [
            {"kind": p.kind, "wounded": p.wounded, "moved": p.steps > 0, "stopped": p.stopped}
            for p in ps
        ]
        for at, ps in sorted(state.sides[seat].cells.items())
    }


def player_view(state: State, seat: int | None) -> dict:
    """The map, both sides' pieces and pyramids (everything on the table is seen by both),
    the phase, and what each side's arithmetic gives now."""
    b = state.battle
    retreat = None
    if b is not None and b.retreats:
        s, at, i = b.retreats[0]
        retreat = {
            "seat": s,
            "cell": hexmap.name(at),
            "piece": i,
            "kind": state.pieces(s, at)[i].kind,
            "options": [
                hexmap.name(c)
                for c in conflict.retreat_options(state, s, at, state.pieces(s, at)[i])
            ],
        }
    return {
        "seat": state.seat,
        "actor": rules.actor(state),
        "phase": state.phase,
        "turn": state.turn,
        "cells": [hexmap.name(c) for c in hexmap.cells()],
        "coords": {hexmap.name(c): list(c) for c in hexmap.cells()},
        "terrain": {hexmap.name(c): t for c, t in state.terrain.items()},
        "terrains": list(TERRAINS),
        "homes": [hexmap.name(c) for c in hexmap.START_FIELDS],
        "pieces": [_pieces(state, s) for s in (0, 1)],
        "track": [
            {k: state.sides[s].track(k) for k in ("hunter", "farmer", "healer", "scientist")}
            for s in (0, 1)
        ],
        "population": [state.sides[s].count() for s in (0, 1)],
        "food": [list(economy.food(state, s)) for s in (0, 1)],
        "research": [economy.research_points(state, s) for s in (0, 1)],
        "points": state.points,
        "emergency": [state.sides[s].emergency for s in (0, 1)],
        "cards": [
            {
                "revealed": sorted(card_name(c) for c in state.sides[s].revealed),
                "active": sorted(card_name(c) for c in state.sides[s].active),
                "paid": {card_name(c): v for c, v in state.sides[s].paid.items()},
                "bonus": dict(state.sides[s].bonus),
            }
            for s in (0, 1)
        ],
        "levels": list(LEVELS),
        "battle": None
        if b is None
        else {
            "cell": hexmap.name(b.cell),
            "stacks": [list(st) for st in b.stacks],
            "attackers": conflict.attackers(state, b.cell),
            "retreat": retreat,
        },
        "wounds_owed": state.wounds_owed,
        "pending": [hexmap.name(c) for c in state.pending],
        "level_iv": state.level_iv,
        "ended": state.ended,
        "winner": state.winner,
    }


def describe(action: Any) -> str:
    who = "The host" if getattr(action, "seat", None) is None else f"Player {action.seat + 1}"
    if isinstance(action, Move):
        found = f", turning up {action.reveal}" if action.reveal else ""
        hurt = "wounded " if action.wounded else ""
        return f"{who} moved a {hurt}{action.kind} from {action.frm} to {action.to}{found}."
    said = {
        Emergency: "declared a food emergency",
        Done: "finished the phase",
        Stacks: "stacked the defence",
        Cover: "covered the defender's stacks",
        Finish: "ended the game (a draw)",
    }
    for kind, text in said.items():
        if isinstance(action, kind):
            return f"{who} {text}."
    if isinstance(action, Retreat):
        found = f", turning up {action.reveal}" if action.reveal else ""
        return f"{who} retreated a piece to {action.to}{found}."
    if isinstance(action, Wound):
        return f"{who} put a hunger wound on a piece on {action.cell}."
    if isinstance(action, Reveal):
        return f"{who} revealed development card {ROMAN[action.level - 1]}-{action.index + 1}."
    if isinstance(action, Activate):
        return (
            f"{who} activated development card {ROMAN[action.level - 1]}-{action.index + 1} "
            f"for {action.cost}."
        )
    return f"{action.type.replace('_', ' ').capitalize()}."
