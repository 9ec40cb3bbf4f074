"""Every case of conformance/bank.json (spec 9) passes."""

import pytest

from .check_case import run_case
from .conformance import case_params


@pytest.mark.parametrize("case", case_params("bank"))
def test_conformance(case):
    run_case(case)
