"""An independent model of the rules, written straight from the rulebook and docs/rules.md.

It shares no code with ``companion``: plain dicts and lists, no precomputed tables,
trades searched by brute force. Tests compare the engine with it; the benchmark
script in ``tests/reference_replay.py`` uses it as the "straightforward reference".
"""

from __future__ import annotations

SUPPLY = {2: 3, 3: 5, 4: 3, 5: 4, 6: 5}


class Illegal(Exception):
    pass


def new_game(players, rates, target=30):
    return {
        "players": players,
        "rates": rates,
        "target": target,
        "round": 0,
        "rows": {"vp": 1, "goods": 1, "trader": 1},
        "seats": [
            {"vp": 0, "goods": players, "hand": list(range(1, 9)), "discard": []}
            for _ in range(players)
        ],
    }


def finished(game):
    return any(s["vp"] >= game["target"] for s in game["seats"])


def best_trade(rates, space, offer):
    """Brute force over how many times each available rate is used."""
    usable = []
    for r in rates[: space + 1]:
        if r is not None and tuple(r) not in usable:
            usable.append(tuple(r))
    best = (0, 0)  # (vp, -spent)

    def search(i, goods_left, vp, spent):
        nonlocal best
        if (vp, -spent) > best:
            best = (vp, -spent)
        if i == len(usable):
            return
        g, v = usable[i]
        k = 0
        while k * g <= goods_left:
            search(i + 1, goods_left - k * g, vp + k * v, spent + k * g)
            k += 1

    search(0, offer, 0, 0)
    return -best[1], best[0]


def play(game, plays, trades):
    if finished(game):
        raise Illegal("game over")
    n = game["players"]
    seats = game["seats"]
    if len(plays) != n:
        raise Illegal("seats")
    need = 2 if n <= 3 else 1
    for i, cards in enumerate(plays):
        if len(cards) != len(set(cards)):
            raise Illegal("repeat")
        for c in cards:
            if c < 1 or c > 8:
                raise Illegal("range")
        if len(cards) != need:
            raise Illegal("count")
        for c in cards:
            if c not in seats[i]["hand"]:
                raise Illegal("hand")
    rows = game["rows"]
    for k in rows:
        rows[k] = min(15, rows[k] + SUPPLY[n])

    def give_goods(i, x):
        seats[i]["goods"] = min(15, seats[i]["goods"] + x)

    def who(card):
        return [i for i in range(n) if card in plays[i]]

    def others(i, card):
        return len([j for j in who(card) if j != i])

    for card in range(1, 9):
        players = who(card)
        if not players:
            continue
        m = len(players)
        if card in (1, 2):
            each = min(2 if card == 1 else 5, rows["vp"] // m)
            for i in players:
                seats[i]["vp"] += each
            rows["vp"] -= each * m
        elif card in (4, 5):
            each = rows["goods"] // m
            if card == 4:
                each = min(3, each)
            for i in players:
                give_goods(i, each)
            rows["goods"] -= each * m
        elif card == 3:
            for i in players:
                give_goods(i, 4 * others(i, 1) + 2 * others(i, 2))
        elif card == 6:
            for i in players:
                seats[i]["vp"] += 3 * others(i, 4) + 1 * others(i, 5)
        elif card == 7:
            space = max(0, rows["trader"] - 2 * (m - 1))
            for i in players:
                offer = trades[i] if i < len(trades) and trades[i] else 0
                offer = min(offer, seats[i]["goods"])
                spent, vp = best_trade(game["rates"], space, offer)
                seats[i]["goods"] -= spent
                seats[i]["vp"] += vp
            rows["trader"] = 0
        elif card == 8:
            for i in players:
                left = len(seats[i]["hand"]) - len(plays[i])
                bonus = 4 if left == 0 else 3 if left <= 2 else 2 if left <= 4 else 1
                give_goods(i, bonus + 2 * others(i, 7))
    for i in range(n):
        if 8 in plays[i]:
            seats[i]["hand"] = list(range(1, 9))
            seats[i]["discard"] = []
        else:
            seats[i]["hand"] = [c for c in seats[i]["hand"] if c not in plays[i]]
            seats[i]["discard"] = sorted(seats[i]["discard"] + list(plays[i]))
    game["round"] += 1


def result(game):
    vp = [s["vp"] + s["goods"] // 3 for s in game["seats"]]
    goods = [s["goods"] % 3 for s in game["seats"]]
    cards = [len(s["hand"]) for s in game["seats"]]
    best = max(zip(vp, goods, cards, strict=True))
    winners = [i for i in range(game["players"]) if (vp[i], goods[i], cards[i]) == best]
    return {"vp": vp, "goods": goods, "winners": winners}


def output(game):
    out = {
        "round": game["round"],
        "finished": finished(game),
        "rows": dict(game["rows"]),
        "players": [
            {
                "vp": s["vp"],
                "goods": s["goods"],
                "hand": sorted(s["hand"]),
                "discard": sorted(s["discard"]),
            }
            for s in game["seats"]
        ],
    }
    if out["finished"]:
        out["result"] = result(game)
    return out
