"""Every cul case of the binding conformance file (spec 8) passes."""

import pytest

from .check_case import run_case
from .conformance import case_params


@pytest.mark.parametrize("case", case_params("cul"))
def test_conformance(case):
    run_case(case)
