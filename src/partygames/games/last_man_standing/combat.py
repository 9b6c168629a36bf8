"""The fight of one round (「戦いの解決」), as a pure function of the fighters' ranks.

Kept apart from the state machine so that tests, bots and analysis can run it on their own.
"""

from __future__ import annotations

from collections.abc import Sequence


def resolve(ranks: Sequence[int]) -> list[tuple[int, int]]:
    """The kills of one resolution as (killer, victim) indices into `ranks`, in bounty order.

    1. The lowest rank, if held by one fighter only, kills every fighter of the highest rank
       except itself (a lone fighter survives).
    2. Then every other rank in ascending order: if exactly one fighter holds it and it is still
       alive, it kills every living fighter of a lower rank. A shared rank kills nothing.
    Victims of one killer are listed in the fighters' order (the arena order).
    """
    if not ranks:
        return []
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    levels = sorted(counts)
    lowest, highest = levels[0], levels[-1]
    alive = [True] * len(ranks)
    kills: list[tuple[int, int]] = []
    if counts[lowest] == 1:
        killer = ranks.index(lowest)
        for i, r in enumerate(ranks):
            if r == highest and i != killer:
                alive[i] = False
                kills.append((killer, i))
    # The lowest rank is left out of the ascending pass (「最もランクの低い闘士を除いて」); it could
    # not kill there anyway, as no fighter is lower.
    for level in levels[1:]:
        if counts[level] != 1:
            continue
        killer = ranks.index(level)
        if not alive[killer]:
            continue  # killed earlier in this resolution: it does not act
        for i, r in enumerate(ranks):
            if r < level and alive[i]:
                alive[i] = False
                kills.append((killer, i))
    return kills


def payouts(ranks: Sequence[int], pot: int) -> list[tuple[int, int, int]]:
    """The kills of one fight with the bounty each pays, (killer, victim, paid), in bounty order.

    The n-th kill of a round pays $n from the pot (「各ラウンドの最初の報酬は$1で…$1ずつ高くなっていきます」),
    or what is left of it; the kill that empties the pot is the last (「テーブルの中央のチップがなくなったら、
    ゲームは即終了」): the kills after it do not happen.
    """
    paid: list[tuple[int, int, int]] = []
    for number, (killer, victim) in enumerate(resolve(ranks), start=1):
        amount = min(number, pot)
        pot -= amount
        paid.append((killer, victim, amount))
        if pot == 0:
            break
    return paid
