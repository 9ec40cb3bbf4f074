"""The server-drawn line chart: coordinates inside the plot, round ticks covering the values,
end labels anchored inwards, a day labelled once."""

import itertools

from ratings.charts import line_chart, nice_step


def test_points_are_spread_over_the_plot_left_to_right_and_high_values_drawn_higher():
    chart = line_chart([0, 10, 5], ["a", "b", "c"])

    xs = [p.x for p in chart.points]
    assert xs[0] == chart.left and xs[-1] == chart.right and xs == sorted(xs)
    assert chart.points[1].y < chart.points[2].y < chart.points[0].y
    assert all(chart.top <= p.y <= chart.bottom for p in chart.points)
    assert chart.path.startswith("M") and chart.path.count("L") == 2


def test_the_y_ticks_are_round_and_cover_every_value():
    chart = line_chart([-2.8, 3.3, 1.5])

    values = [float(text.replace("−", "-")) for _y, text in chart.y_ticks]
    assert values[0] <= -2.8 and values[-1] >= 3.3
    steps = {round(b - a, 6) for a, b in itertools.pairwise(values)}
    assert len(steps) == 1 and steps.pop() in (1, 2, 5)
    assert "−2" in [text for _y, text in chart.y_ticks]  # a real minus sign


def test_nice_steps():
    assert [nice_step(s) for s in (4, 9, 23, 0.3, 0)] == [1, 5, 10, 0.1, 1.0]


def test_end_labels_are_anchored_inwards_and_a_day_is_labelled_once():
    chart = line_chart([1, 2, 3, 4, 5], ["", "1 Dec", "1 Dec", "1 Dec", "2 Dec"], x_labels=5)

    assert [(text, anchor) for _x, text, anchor in chart.x_ticks] == [("1 Dec", "middle"), ("2 Dec", "end")]


def test_a_single_or_flat_series_is_drawn():
    one = line_chart([3.0], ["today"])
    assert len(one.points) == 1 and one.points[0].x == (one.left + one.right) / 2
    flat = line_chart([2.0, 2.0])
    assert len({p.y for p in flat.points}) == 1 and flat.y_ticks
    assert line_chart([]).points == []


def test_the_points_markup_is_format_html_joins_with_every_label_escaped():
    from django.utils.formats import number_format
    from django.utils.html import format_html_join

    from ratings.charts import line_chart
    from ratings.templatetags.ratings import chart_points

    values = [1500, 1523, 1523, 1498, 1512, 1512, 1540]
    labels = ["", "1/2", "1/2", "<b>&amp;", "<b>&amp;", "3/2", "3/2"]
    chart = line_chart(values, labels)
    last = len(chart.points) - 1
    reference = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="{}"><title>{}: {}</title></circle>',
        (
            (p.cx, p.cy, "3.5" if i == last else "2.2", p.label, number_format(p.value))
            for i, p in enumerate(chart.points)
        ),
    )
    assert chart_points(chart) == reference
    assert "&lt;b&gt;&amp;amp;" in chart_points(chart)
