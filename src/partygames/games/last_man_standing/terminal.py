"""Terminal rendering of a seat's Last Man Standing view, and its events as lines."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text as RichText

from partygames.engine.text import Lang, Text
from partygames.games.last_man_standing.labels import LABELS

_L = {
    "phase": Text("Phase", "フェーズ"), "round": Text("Round", "ラウンド"), "pot": Text("Pot", "テーブル中央"),
    "set_aside": Text("Set aside", "横に分けたチップ"), "market": Text("Market", "市場"),
    "deck": Text("Deck", "山札"), "seat": Text("Seat", "席"), "chips": Text("Chips", "チップ"),
    "hand": Text("Hand", "手札"), "known": Text("Known cards", "判明しているカード"),
    "fighters": Text("Fighters", "闘士"), "played": Text("Played", "プレイ済み"),
    "my_hand": Text("Your hand", "あなたの手札"), "my_played": Text("Face down", "裏向きでプレイ"),
    "last": Text("Last fight", "直前の戦い"), "kills": Text("kills", "殺す"),
    "none": Text("no kills", "殺しなし"), "unawarded": Text("Unawarded", "分配されない残り"),
    "drafter": Text("To hire", "雇用の手番"), "you": Text("you", "あなた"),
    "winners": Text("Winners", "勝者"),
}


def render(view: dict[str, Any], lang: Lang = "en") -> Group:
    """A readable picture of one seat's view: table state, players, the arena, the last fight."""
    def t(key: str) -> str:
        return _L[key](lang)

    me = view["seat"]
    parts: list[Any] = []
    head = f"{t('phase')}: {LABELS.phases[view['phase']](lang)}"
    if view["phase"] != "draft":
        head += f"   {t('round')} {view['round']}/{view['rounds']}"
    head += f"   {t('pot')}: ${view['pot']}   {t('set_aside')}: ${view['set_aside']}"
    if view["phase"] == "over" and view["unawarded"]:
        head += f"   {t('unawarded')}: ${view['unawarded']}"
    parts.append(RichText(head, style="bold"))
    if view["phase"] == "draft":
        market = "   ".join(f"[{m['slot']}] {m['card']} ${m['price']}" for m in view["market"])
        parts.append(RichText(f"{t('market')}: {market}   {t('deck')}: {view['deck_count']}"))
        parts.append(RichText(f"{t('drafter')}: {t('seat')} {view['drafter']}"))
    table = Table(show_header=True)
    for key in ("seat", "chips", "hand", "known", "fighters", "played"):
        table.add_column(t(key))
    for s in range(view["seats"]):
        fighters = " ".join(f["card"] for f in view["arena"] if f["owner"] == s)
        name = f"{s} ({t('you')})" if s == me else str(s)
        table.add_row(name, f"${view['chips'][s]}", str(view["hand_counts"][s]), " ".join(view["known_cards"][s]),
                      fighters, "✓" if view["has_played"][s] else "")
    parts.append(table)
    if view["history"]:
        last = view["history"][-1]
        kills = [f"{k['killer']['card']}({k['killer']['owner']}) {t('kills')} {k['victim']['card']}"
                 f"({k['victim']['owner']}) ${k['paid']}" for k in last["kills"]]
        parts.append(RichText(f"{t('last')} ({t('round')} {last['round']}): " + " ".join(last["plays"])))
        parts.append(RichText("  " + ("; ".join(kills) if kills else t("none"))))
    result = view["result"]
    if result is not None:
        winners = ", ".join(f"{t('seat')} {w}" for w in result["winners"])
        parts.append(RichText(f"{t('winners')}: {winners} ({LABELS.terminations[result['termination']](lang)})", style="bold green"))
    if view["my_hand"] is not None:
        parts.append(RichText(f"{t('my_hand')}: {' '.join(view['my_hand'])}", style="cyan"))
        if view["my_played"]:
            parts.append(RichText(f"{t('my_played')}: {view['my_played']}", style="cyan"))
    return Group(*parts)


def describe_event(event: dict[str, Any], lang: Lang = "en") -> str | None:
    """One line for an event (as `Event.to_json()`), or None to let the host show it raw."""
    data = event["data"]
    ja = lang == "ja"
    kind = event["type"]
    if kind == "hired":
        refill = data["refill"] or "-"
        return (f"席 {data['seat']} が {data['card']} を ${data['price']} で雇った(補充: {refill})" if ja
                else f"Seat {data['seat']} hired {data['card']} for ${data['price']} (new card: {refill})")
    if kind == "played_face_down":
        return f"席 {data['seat']} がカードを裏向きでプレイした" if ja else f"Seat {data['seat']} played a card face down"
    if kind == "round_started":
        return f"ラウンド {data['round']} 開始" if ja else f"Round {data['round']} begins"
    if kind == "fight":
        word = "殺す" if ja else "kills"
        kills = [f"{k['killer']['card']}({k['killer']['owner']}) {word} {k['victim']['card']}({k['victim']['owner']})"
                 f" ${k['paid']}" for k in data["kills"]]
        head = (f"ラウンド {data['round']}: " if ja else f"Round {data['round']}: ") + " ".join(data["plays"])
        none = "殺しなし" if ja else "no kills"
        return f"{head} — {'; '.join(kills) or none} — " + (f"中央 ${data['pot']}" if ja else f"pot ${data['pot']}")
    if kind == "game_over":
        chips = " ".join(f"${c}" for c in data["chips"])
        if data["termination"] == "pot_empty":
            return f"テーブル中央のチップがなくなり終了: {chips}" if ja else f"The pot ran dry, game over: {chips}"
        return (f"生き残り {data['survivors']} 人で ${data['share']} ずつ分配(余り ${data['unawarded']}): {chips}" if ja
                else f"{data['survivors']} surviving fighter(s) get ${data['share']} each "
                     f"(${data['unawarded']} unawarded): {chips}")
    return None
