"""Every Bastard case of the binding conformance file (spec 10) passes."""

import pytest

from .check_case import run_case
from .conformance import case_params


@pytest.mark.parametrize("case", case_params("bastard"))
def test_conformance(case):
    run_case(case)
