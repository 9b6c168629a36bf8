"""Terminal rendering of a seat's Last Man Standing view, and its events as lines."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text as RichText

from partygames.engine.names import name_of, subject_of
from partygames.engine.text import Lang, Text
from partygames.games.last_man_standing.cards import card_text
from partygames.games.last_man_standing.labels import LABELS

_L = {
    "phase": Text("Phase", "フェーズ"), "round": Text("Round", "ラウンド"), "pot": Text("Pot", "テーブル中央"),
    "set_aside": Text("Set aside", "横に分けたチップ"), "market": Text("Market", "市場"),
    "deck": Text("Deck", "山札"), "seat": Text("Who", "参加者"), "chips": Text("Chips", "チップ"),
    "hand": Text("Hand", "手札"), "known": Text("Known cards", "判明しているカード"),
    "fighters": Text("Fighters", "闘士"), "played": Text("Played", "プレイ済み"),
    "my_hand": Text("Your hand", "あなたの手札"), "my_played": Text("Face down", "裏向きでプレイ"),
    "last": Text("Last fight", "直前の戦い"), "kills": Text("kills", "殺す"),
    "none": Text("no kills", "殺しなし"), "unawarded": Text("Unawarded", "分配されない残り"),
    "drafter": Text("To hire", "雇用の手番"), "you": Text("you", "あなた"),
    "winners": Text("Winners", "勝者"),
}


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> Group:
    """A readable picture of one seat's view: table state, players, the arena, the last fight."""
    def t(key: str) -> str:
        return _L[key](lang)

    parts: list[Any] = []
    head = f"{t('phase')}: {LABELS.phases[view['phase']](lang)}"
    if view["phase"] != "draft":
        head += f"   {t('round')} {view['round']}/{view['rounds']}"
    head += f"   {t('pot')}: ${view['pot']}   {t('set_aside')}: ${view['set_aside']}"
    if view["phase"] == "over" and view["unawarded"]:
        head += f"   {t('unawarded')}: ${view['unawarded']}"
    parts.append(RichText(head, style="bold"))
    if view["phase"] == "draft":
        market = "   ".join(f"{card_text(m['card'])} ${m['price']}" for m in view["market"])
        parts.append(RichText(f"{t('market')}: {market}   {t('deck')}: {view['deck_count']}"))
        parts.append(RichText(f"{t('drafter')}: {subject_of(names, view['drafter'], lang)}"))
    table = Table(show_header=True)
    for key in ("seat", "chips", "hand", "known", "fighters", "played"):
        table.add_column(t(key))
    for s in range(view["seats"]):
        fighters = _cards(f["card"] for f in view["arena"] if f["owner"] == s)
        table.add_row(subject_of(names, s, lang), f"${view['chips'][s]}", str(view["hand_counts"][s]), _cards(view["known_cards"][s]),
                      fighters, "✓" if view["has_played"][s] else "")
    parts.append(table)
    if view["history"]:
        last = view["history"][-1]
        parts.append(RichText(f"{t('last')} ({t('round')} {last['round']}): {_plays(last['plays'], lang, names)}"))
        parts.append(RichText("\n".join("  " + line for line in _kills(last["kills"], lang, names))))
    result = view["result"]
    if result is not None:
        winners = ", ".join(subject_of(names, w, lang) for w in result["winners"])
        parts.append(RichText(f"{t('winners')}: {winners} ({LABELS.terminations[result['termination']](lang)})", style="bold green"))
    if view["my_hand"] is not None:
        parts.append(RichText(f"{t('my_hand')}: {_cards(view['my_hand'])}", style="cyan"))
        if view["my_played"]:
            parts.append(RichText(f"{t('my_played')}: {card_text(view['my_played'])}", style="cyan"))
    return Group(*parts)


def _cards(cards: Iterable[str]) -> str:
    return " ".join(map(card_text, cards))


def _fighter(fighter: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> str:
    """A card with whose it is: "4♠ (Aki)", "4♠(アキ)"."""
    owner = name_of(names, fighter["owner"], lang)
    return f"{card_text(fighter['card'])}({owner})" if lang == "ja" else f"{card_text(fighter['card'])} ({owner})"


def _plays(plays: list[str], lang: Lang, names: Sequence[str] = ()) -> str:
    """This round's cards, each with the seat that played it (`plays[seat]`)."""
    return ("、" if lang == "ja" else ", ").join(_fighter({"card": card, "owner": seat}, lang, names)
                                                for seat, card in enumerate(plays))


def _kills(kills: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> list[str]:
    """A sentence per kill with its bounty: "4♠ (Aki) kills 7♥ (Bot Aoi): $1"."""
    if not kills:
        return ["誰も殺されなかった" if lang == "ja" else "Nobody is killed"]
    if lang == "ja":
        return [f"{_fighter(k['killer'], lang, names)}が {_fighter(k['victim'], lang, names)}を殺す: ${k['paid']}"
                for k in kills]
    return [f"{_fighter(k['killer'], lang, names)} kills {_fighter(k['victim'], lang, names)}: ${k['paid']}"
            for k in kills]


#: Result details whose values are seats.
SEAT_KEYS = frozenset({"owner"})


def value_text(key: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str | None:
    """A card in a result reads as on the table: "9♥"."""
    return card_text(value) if key == "card" and isinstance(value, str) else None


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A market slot reads as the card in it and its price ("5♣ for $2"); a card from the hand as "5♣"."""
    if param == "slot":
        offer = next((m for m in view.get("market", []) if m["slot"] == value), None)
        if offer is not None:
            return (f"{card_text(offer['card'])}(${offer['price']})" if lang == "ja"
                    else f"{card_text(offer['card'])} for ${offer['price']}")
    if param == "card" and isinstance(value, str):
        return card_text(value)
    return None


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line for an event (as `Event.to_json()`), or None to let the host show it raw; a fight is told
    kill by kill, one sentence each, naming the seats by `names` (by number where there is none)."""
    data = event["data"]
    ja = lang == "ja"
    kind = event["type"]

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    def subject(seat: int) -> str:
        return subject_of(names, seat, lang)

    if kind == "hired":
        card, refill = card_text(data["card"]), card_text(data["refill"]) if data["refill"] else "-"
        return (f"{who(data['seat'])} が {card} を ${data['price']} で雇った(補充: {refill})" if ja
                else f"{subject(data['seat'])} hired {card} for ${data['price']} (new card: {refill})")
    if kind == "played_face_down":
        return (f"{who(data['seat'])} がカードを裏向きでプレイした" if ja
                else f"{subject(data['seat'])} played a card face down")
    if kind == "round_started":
        return f"ラウンド {data['round']} 開始" if ja else f"Round {data['round']} begins"
    if kind == "fight":
        head = (f"ラウンド {data['round']} の戦い: " if ja else f"Round {data['round']} fight: ") + _plays(
            data["plays"], lang, names)
        pot = f"テーブル中央: ${data['pot']}" if ja else f"Pot: ${data['pot']}"
        return "\n".join([head, *("    " + line for line in _kills(data["kills"], lang, names)), "    " + pot])
    if kind == "game_over":
        chips = ", ".join(f"{who(seat)} ${c}" for seat, c in enumerate(data["chips"]))
        if data["termination"] == "pot_empty":
            return f"テーブル中央のチップがなくなり終了。チップ: {chips}" if ja else f"The pot ran dry, game over. Chips: {chips}"
        n, share, left = data["survivors"], data["share"], data["unawarded"]
        if ja:
            return f"生き残った闘士 {n} 人で ${share} ずつ分配(余り ${left})。チップ: {chips}"
        fighters = "1 surviving fighter gets" if n == 1 else f"{n} surviving fighters get"
        return f"{fighters} ${share} each (${left} unawarded). Chips: {chips}"
    return None
