"""Every worked case of the two-hand piquet conformance files (spec 1.8)."""

import pytest

from tests.rules.check_case import run_case
from tests.rules.conformance import case_params, load_cases


@pytest.mark.parametrize("case", case_params("piquet"))
def test_piquet_case(case):
    run_case(case)


@pytest.mark.parametrize("case", case_params("piquet-au-cent"))
def test_piquet_au_cent_case(case):
    run_case(case)


@pytest.mark.parametrize("case", case_params("piquet-auction"))
def test_piquet_auction_case(case):
    run_case(case)


@pytest.mark.parametrize("game_file", ["piquet", "piquet-au-cent", "piquet-auction"])
def test_every_valid_conformance_record_fits_the_record_schema(game_file):
    import jsonschema

    from scorekeeper.rules import find_ruleset

    schema = find_ruleset(game_file).record_schema
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for case in load_cases(game_file):
        hands = case["hands"] if "hands" in case else [case["hand"]]
        if "hand" in case and case["expect"].get("errors"):
            continue
        for hand in hands:
            errors = [e.message for e in validator.iter_errors(hand)]
            assert not errors, (case["id"], errors)
