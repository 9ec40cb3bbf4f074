"""Every worked case of the two-hand piquet conformance files (spec 1.8)."""

import pytest

from tests.rules.check_case import run_case
from tests.rules.conformance import case_params


@pytest.mark.parametrize("case", case_params("piquet"))
def test_piquet_case(case):
    run_case(case)


@pytest.mark.parametrize("case", case_params("piquet-au-cent"))
def test_piquet_au_cent_case(case):
    run_case(case)


@pytest.mark.parametrize("case", case_params("piquet-auction"))
def test_piquet_auction_case(case):
    run_case(case)
