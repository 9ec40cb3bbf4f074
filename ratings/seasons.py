"""Seasons: a leaderboard of a period of days (this month, this year, from–to).

A period is whole days, ``first`` to ``last`` inclusive, in a time zone (the page's, UTC for
the API); its bounds are the start of ``first`` and the start of the day after ``last``, and
the board is ``ratings.selectors.season_board`` over them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The longest period a season board covers (a generous ten years; beyond it a typo, say 20205).
LONGEST_DAYS = 3660


@dataclass(frozen=True)
class Period:
    first: dt.date
    last: dt.date

    def bounds(self, zone: dt.tzinfo) -> tuple[dt.datetime, dt.datetime]:
        """[start, end) as aware datetimes in ``zone``."""
        start = dt.datetime.combine(self.first, dt.time.min, tzinfo=zone)
        end = dt.datetime.combine(self.last + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
        return start, end


def this_month(today: dt.date) -> Period:
    return Period(today.replace(day=1), today)


def this_year(today: dt.date) -> Period:
    return Period(today.replace(month=1, day=1), today)


def last_month(today: dt.date) -> Period:
    last = today.replace(day=1) - dt.timedelta(days=1)
    return Period(last.replace(day=1), last)


def today_in(zone: dt.tzinfo | None = None) -> dt.date:
    return timezone.localtime(timezone.now(), zone or timezone.get_current_timezone()).date()


def _day_field(label) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class PeriodForm(forms.Form):
    """The season page's GET form, ``?from=&to=`` (ISO days, as the API's): by default this
    month up to ``today``; a bad or inverted range is a readable error."""

    def __init__(self, *args, today: dt.date, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        # "from" is a Python keyword: the fields are added here, not declared.
        self.fields["from"] = _day_field(_("From"))
        self.fields["to"] = _day_field(_("To"))

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        last = data.get("to") or self.today
        first = data.get("from") or last.replace(day=1)
        check_period(first, last, error=forms.ValidationError)
        data["period"] = Period(first, last)
        return data


def check_period(first: dt.date, last: dt.date, *, error) -> None:
    """Raise ``error(message, code=…)`` for an inverted or overlong period."""
    if first > last:
        message = _("The period ends before it starts: “to” must be on or after “from”.")
        raise error(message, code="period_inverted")
    if (last - first).days >= LONGEST_DAYS:
        raise error(_("A season covers at most ten years."), code="period_too_long")
