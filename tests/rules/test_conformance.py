"""Every case of every conformance file passes (spec 1.8), and every game's record schema
(draft 2020-12, for the catalog) admits the records of the cases the engine accepts."""

import jsonschema
import pytest

from scorekeeper.rules import find_ruleset

from .check_case import run_case
from .conformance import GAMES, accepted_records, case_params


@pytest.mark.parametrize("case", case_params())
def test_conformance(case):
    run_case(case)


@pytest.mark.parametrize("game", GAMES)
def test_the_record_schema_is_a_valid_draft_2020_12_schema(game):
    jsonschema.Draft202012Validator.check_schema(find_ruleset(game).record_schema)


@pytest.mark.parametrize("game", GAMES)
def test_every_accepted_conformance_record_fits_the_record_schema(game):
    validator = jsonschema.Draft202012Validator(find_ruleset(game).record_schema)
    for case_id, record in accepted_records(game):
        errors = [e.message for e in validator.iter_errors(record)]
        assert not errors, (case_id, errors)
