"""Options of Last Man Standing."""

from __future__ import annotations

from pydantic import Field

from partygames.engine.options import Options


class LastManStandingOptions(Options):
    """The seed fixes $50 a player; where draft payments go is the one rule the seed leaves open."""

    draft_payments_to_pot: bool = Field(
        False,
        title="Draft payments go to the pot (default: set aside)",
        json_schema_extra={"title_ja": "雇用の支払いをテーブル中央に入れる(既定: 横に分けておく)"},
    )
    starting_chips: int = Field(
        50, ge=15, le=10_000,
        title="Starting chips per player (the seed: $50)",
        json_schema_extra={"title_ja": "各プレイヤーの初期チップ(元ルール: $50)"},
    )
