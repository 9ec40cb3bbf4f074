"""The club-night benchmark's pure pieces, so that it cannot rot unseen (the benchmark itself is
run by hand: benchmarks/club_night.py, docs/performance.md)."""

import random

from benchmarks import club_night


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))  # 1 … 100

    assert club_night.percentile(values, 50) == 50
    assert club_night.percentile(values, 95) == 95
    assert club_night.percentile(values, 99) == 99
    assert club_night.percentile(values, 100) == 100
    assert club_night.percentile([7.0], 99) == 7.0
    assert club_night.percentile([], 50) == 0.0
    assert club_night.percentile([1, 2, 3], 1) == 1  # never before the first


def test_summarize_sorts_and_counts():
    summary = club_night.summarize([0.3, 0.1, 0.2, 0.4])

    assert summary == {"count": 4, "p50": 0.2, "p95": 0.4, "p99": 0.4, "max": 0.4}
    assert club_night.summarize([])["count"] == 0


def test_the_night_is_cut_into_windows_by_when_each_request_was_answered():
    answered = [
        (100.5, "record · page", 0.020),
        (101.0, "live check · API dry run", 0.010),
        (104.9, "read · profile page", 0.050),
        (109.0, "record · API", 0.800),
        (109.5, "record · page", 0.600),
        (109.9, "table pages (form, hand, new match, sheet)", 2.0),  # in no target's group
        (121.0, "read · leaderboard API", 0.030),
    ]

    cut = club_night.windows(answered, start=100.0, width=5.0)

    assert [w["from"] for w in cut] == [0.0, 5.0, 10.0, 15.0, 20.0]
    assert [w["requests"] for w in cut] == [3, 3, 0, 0, 1]
    assert (cut[0]["record"], cut[0]["live check"], cut[0]["read"]) == (0.020, 0.010, 0.050)
    assert (cut[1]["record"], cut[1]["live check"], cut[1]["read"]) == (0.800, 0.0, 0.0)
    assert cut[4]["read"] == 0.030
    assert club_night.windows([], start=0.0, width=5.0) == []


def test_the_pace_compresses_a_hand_of_three_to_five_minutes():
    rng = random.Random(1)
    for _ in range(200):
        to_check, entry = club_night.hand_times(rng, 50)
        assert entry == 30 / 50  # the scorer's half minute with the live check's answer
        assert 180 / 50 <= to_check + entry <= 300 / 50
    assert all(10 / 50 <= club_night.read_pause(rng, 50) <= 30 / 50 for _ in range(200))
    slow, _ = club_night.hand_times(random.Random(1), 1)
    assert slow > 100  # at ×1, a real table's minutes


def test_cpu_busy_leaves_out_idle_and_iowait():
    before = [100, 0, 100, 700, 100, 0, 0, 0, 0, 0]
    after = [200, 0, 200, 800, 200, 0, 0, 0, 0, 0]  # +100 user, +100 system, +100 idle, +100 iowait

    assert club_night.cpu_busy(before, after) == 0.5
    assert club_night.cpu_busy(before, before) == 0.0


def test_a_pages_hidden_values_are_read():
    page = b'<input type="hidden" name="csrfmiddlewaretoken" value="abc123"><input name="version" value="4">'

    assert club_night.html_value(page, "csrfmiddlewaretoken") == "abc123"
    assert club_night.html_value(page, "version") == "4"
    assert club_night.html_value(page, "missing") == ""


def test_the_demo_parties_finish_and_the_hand_form_rebuilds_every_record():
    """What the tables send: the demo's parties still end, and each hand as a phone posts the
    form is the same record an app posts (checked inside ``demo_parties``, which stops otherwise)."""
    from scorekeeper.rules import find_ruleset

    options = find_ruleset("piquet").create("classic", None, 2).options.to_dict()
    parties = club_night.demo_parties(options)

    assert len(parties) >= 2
    for partie in parties:
        assert partie["finish"] == len(partie["records"]) == len(partie["forms"])
        assert all("accept_declared" not in fields and "tricks" in fields for fields in partie["forms"])


def test_the_cpu_accounting_reads_proc():
    """Who used the CPU during the night: /proc/<pid>/stat, whatever the command's name."""
    import os

    fields = club_night.stat_fields("4242 (celery worker: (x)) S 1 4242 4242 0 -1 0 0 0 0 0 17 5 0 0")
    assert (fields[0], fields[1], fields[11], fields[12]) == ("S", "1", "17", "5")
    assert club_night.process_cpu(os.getpid()) >= 0
    assert club_night.process_cpu(2**22 + 1) is None  # above the kernel's pid_max: no such process
    assert os.getpid() in club_night.descendants(os.getpid())

    meter = club_night.CpuMeter()
    meter.sample("us", [os.getpid()])
    sum(i * i for i in range(200_000))  # some CPU
    meter.sample("us", [os.getpid()], born=True)  # seen before: its first reading stands
    assert meter.used()["us"] >= 0
    assert set(meter.used()) == {"us"}
