"""`manage.py ratings_backtest`: the back-test of ratings/backtest/ on stored or given matches.

    manage.py ratings_backtest --game piquet            # the pool's rated matches, in its order
    manage.py ratings_backtest --input matches.jsonl    # {"game", "sides", "places"[, "played_at", "scores"]}
    manage.py ratings_backtest --synthetic 7            # the generator, with the oracle beside
    ... --predictions out.jsonl                         # the served model's win probabilities

Every candidate predicts each match before it learns the outcome, in play order (by
``played_at`` when the lines give it: a line without keeps its place after the one before and
lets no time pass). Lines with ``"scores"`` (one number per side, its points in the match,
more is better) are also rated by the ``margin-aware`` candidate, marked "*", which reads them
(the default row reads the places alone); the report gives winner accuracy, log-loss, Brier
score, predicted against
observed draws of two sides and a calibration table per candidate. The default candidate and
``--predictions`` are the model the service serves: ``ratings.raters.rater(game)`` for
``--game`` (the pool's fitted parameters, if any), ``Rater.default()`` otherwise. The report compares
openskill's models, a development requirement (requirements-dev.txt); the predictions alone
(``--predictions OUT --no-report``) need only requirements.txt.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from ratings import backtest
from ratings.engine import Rater
from ratings.fitting import point_scale
from ratings.pool_reading import pool_matches
from ratings.raters import rater
from scorekeeper.rules import UnknownGame, find_ruleset


class Command(BaseCommand):
    help = "Back-test the rating models on a pool's stored matches, a JSON-lines file or synthetic matches."

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--game", help="replay the stored, rated matches of this game's pool")
        source.add_argument(
            "--input",
            metavar="FILE",
            help='JSON lines {"game", "sides", "places"[, "played_at", "scores"]} ("-": stdin)',
        )
        source.add_argument(
            "--synthetic", type=int, metavar="SEED", help="matches of the synthetic generator"
        )
        parser.add_argument(
            "--predictions", metavar="OUT", help='write {"win_probabilities": [...]} per match, input order'
        )
        parser.add_argument("--no-report", action="store_true", help="only write the predictions")

    def handle(
        self, *args, game=None, input=None, synthetic=None, predictions=None, no_report=False, **options
    ):
        if not no_report:
            _require_openskill()
        matches = self._matches(game, input, synthetic)
        served = rater(game) if game is not None else Rater.default()
        if predictions:
            with open(predictions, "w", encoding="utf-8") as out:
                for probabilities in backtest.default_predictions(matches, served):
                    out.write(json.dumps({"win_probabilities": probabilities}) + "\n")
        if not no_report:
            oracle = bool(matches) and all(m.oracle is not None for m in matches)
            scale = served.point_scale or point_scale(matches)
            field = backtest.candidates(include_oracle=oracle, rater=served, point_scale=scale)
            self.stdout.write(backtest.format_report(backtest.run(matches, field)))

    def _matches(self, game, path, seed) -> list[backtest.BacktestMatch]:
        if seed is not None:
            return backtest.synthetic(seed)
        if game is not None:
            try:
                find_ruleset(game)
            except UnknownGame as exc:
                raise CommandError(str(exc)) from None
            return [
                backtest.BacktestMatch(game, m.sides, m.places, day=getattr(m, "day", None), scores=m.scores)
                for m in pool_matches(game)
            ]
        try:
            stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            return list(backtest.read_jsonl(stream))
        except backtest.BacktestInputError as exc:
            raise CommandError(f"{path}: {exc}") from None
        finally:
            if stream is not sys.stdin:
                stream.close()


def _require_openskill() -> None:
    # Said before any work, rather than as an ImportError from the middle of the report.
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        raise CommandError(
            "the report compares openskill's models, which are not installed: "
            "pip install -r requirements-dev.txt (or --predictions OUT --no-report without them)"
        ) from None
