"""`manage.py ratings_fit --game G`: fit the rating model's parameters to a pool's own matches.

    manage.py ratings_fit --game cul              # fit, store with the pool, recompute it
    manage.py ratings_fit --game cul --min-matches 200

A few candidate parameter sets (the default and each parameter a step either way) are each
replayed over the pool's matches in its order and scored by their Brier score on the later
half; the best is stored with the pool (``RatingPool.parameters``) with the pool's own draw
share, and a full recompute of the pool is started, so that its ratings, history and
predictions come from them. A pool with fewer matches than ``--min-matches`` keeps the
defaults (docs/ratings.md, "Parameters per game").
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ratings.services import rating_pool_fit
from scorekeeper.rules import UnknownGame, find_ruleset


class Command(BaseCommand):
    help = "Fit the rating model's parameters to a game's pool (the back-test on its own matches)."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="the game whose pool to fit")
        parser.add_argument(
            "--min-matches", type=int, default=None, help="below this many matches, keep the defaults"
        )

    def handle(self, *args, game, min_matches=None, **options):
        try:
            find_ruleset(game)
        except UnknownGame as exc:
            raise CommandError(str(exc)) from None
        if min_matches is not None and min_matches < 1:
            raise CommandError("--min-matches must be at least 1")
        found = rating_pool_fit(game=game, min_matches=min_matches)
        self.stdout.write(f"{game}: {found['matches']} matches, {found['scored']} scored; {found['reason']}")
        for row in found["candidates"]:
            self.stdout.write(f"  Brier {row['brier']:.5f}  {json.dumps(row['parameters'])}")
        stored = json.dumps(found["parameters"])
        self.stdout.write(f"stored: {stored}; recompute job {found['recompute_job']}")
