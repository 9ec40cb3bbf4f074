"""The back-test of issue 11, in plain Python: candidates, metrics, a synthetic generator.

This package is research code, apart from what serves requests: ``manage.py
ratings_backtest``, the benchmarks and the tests reach it; the site, the API and the tasks do
not (``POST /predict`` uses ``ratings.engine``'s ``Rater.win_probabilities``). Its modules:

- ``matches``: the back-test's matches, their JSON lines and their play order;
- ``predictors``: the candidates (the service's model, openskill's, Elo, the oracle …) and the
  served model's predictions (``default_predictions``);
- ``scoring``: ``run`` (every candidate predicts every match before it learns the outcome)
  and its metrics (winner accuracy, log-loss, Brier, calibration, draws), ``format_report``;
- ``generator``: ``synthetic``, matches with hidden drifting skills and their true
  probabilities (the oracle's: the floor no model can beat);
- ``display_scale``: how well the displayed rating ranks the true skills;
- ``league_fit``: a league's parameters as ``ratings_fit`` chooses them, on its tuning seeds;
- ``newcomers``: how many matches a newcomer needs before his rating stays within one
  deviation of his true skill, and before he is established (the points' worth to him);
- ``refit`` (the dynamic batch refit), ``ceiling`` (the generator's own model as a filter, and
  the oracle-assisted bound) and ``synthetic_db`` (synthetic finished matches written straight
  into the tables, for the database benchmark and the integration tests).

openskill, a development requirement (requirements-dev.txt), is imported only when its
candidates run. The names below are the back-test's interface, imported from here.
"""

from __future__ import annotations

from .ceiling import OracleAssistedFilter, OracleAssistedMarginFilter, ThurstoneFilter
from .display_scale import DisplayRow, display_study, format_display_study
from .generator import Generator, synthetic
from .league_fit import REPORT_SEEDS, TUNING_SEEDS, fitted_parameters, league_fit, tuning_pool
from .matches import BacktestInputError, BacktestMatch, parse_match, play_order, read_jsonl, write_jsonl
from .newcomers import NewcomerRow, format_newcomer_study, newcomer_study
from .predictors import (
    PLACKETT_LUCE_TUNED,
    Candidate,
    EloPredictor,
    OpenSkillPredictor,
    OraclePredictor,
    PoolPredictor,
    RaterPredictor,
    candidates,
    default_predictions,
    refit_predictor,
)
from .scoring import Report, Score, format_report, run

__all__ = [
    "PLACKETT_LUCE_TUNED",
    "REPORT_SEEDS",
    "TUNING_SEEDS",
    "BacktestInputError",
    "BacktestMatch",
    "Candidate",
    "DisplayRow",
    "EloPredictor",
    "Generator",
    "NewcomerRow",
    "OpenSkillPredictor",
    "OracleAssistedFilter",
    "OracleAssistedMarginFilter",
    "OraclePredictor",
    "PoolPredictor",
    "RaterPredictor",
    "Report",
    "Score",
    "ThurstoneFilter",
    "candidates",
    "default_predictions",
    "display_study",
    "fitted_parameters",
    "format_display_study",
    "format_newcomer_study",
    "format_report",
    "league_fit",
    "newcomer_study",
    "parse_match",
    "play_order",
    "read_jsonl",
    "refit_predictor",
    "run",
    "synthetic",
    "tuning_pool",
    "write_jsonl",
]
