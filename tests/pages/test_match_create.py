"""Signing in and out, and the "new match" pages: game, preset, options, players in seat order."""

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper.matches.models import AuditEntry, Match, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


# -- sign in / out ---------------------------------------------------------------------------------
def test_a_user_signs_in_and_lands_where_they_were_going(client, django_user_model):
    django_user_model.objects.create_user("cy", password="a long pass phrase")

    page = client.get(reverse("login"))
    response = client.post(
        reverse("login"), {"login": "cy", "password": "a long pass phrase", "next": reverse("match-new")}
    )

    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    assert response.status_code == 302 and response.url == reverse("match-new")


def test_a_wrong_password_is_refused_on_the_page(client, django_user_model):
    django_user_model.objects.create_user("cy", password="a long pass phrase")

    response = client.post(reverse("login"), {"login": "cy", "password": "nope"})

    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in response.content.decode()


def test_signing_out_is_a_post_and_goes_home(signed_in):
    response = signed_in.post(reverse("logout"))

    assert response.status_code == 302 and response.url == reverse("home")
    assert "Sign in" in signed_in.get(reverse("home")).content.decode()


def test_the_header_shows_who_is_signed_in(signed_in):
    body = signed_in.get(reverse("home")).content.decode()

    assert "ann" in body and "Sign out" in body and reverse("match-new") in body


# -- choosing the game -------------------------------------------------------------------------
def test_the_game_list_offers_every_real_game_with_its_seat_counts(signed_in, tally):
    response = signed_in.get(reverse("match-new"))

    keys = [g["key"] for g in response.context["games"]]
    assert keys == sorted(["bank", "bastard", "cul", "piquet", "piquet-au-cent", "piquet-auction",
                           "piquet-normand", "piquet-voleur"])  # fmt: skip
    assert "tally" not in keys  # test games are not offered
    assert "2–6 players" in response.content.decode()


def test_new_match_pages_need_a_signed_in_user(client):
    for url in (reverse("match-new"), reverse("match-new-game", args=["piquet"])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_an_unknown_game_is_a_404(signed_in):
    assert signed_in.get(reverse("match-new-game", args=["poker"])).status_code == 404


def test_the_options_come_from_the_catalog_with_their_defaults(signed_in):
    response = signed_in.get(reverse("match-new-game", args=["piquet-normand"]))

    form = response.context["form"]
    body = response.content.decode()
    assert [f"seat_{i}" in form.fields for i in range(3)] == [True] * 3 and "seat_3" not in form.fields
    choices = [value for value, _ in form.fields["opt_repique_total"].choices]
    assert choices == ["", "80", "90"]
    assert "classic 90, seed 80" in body  # the defaults per preset
    assert "a three-hand repique at 20" in body  # the option's help


# -- creating ----------------------------------------------------------------------------------------
def test_a_match_is_created_with_players_in_seat_order_and_typed_overrides(signed_in, make_players, user):
    ada, bea = make_players("Ada", "Bea")

    response = signed_in.post(
        reverse("match-new-game", args=["piquet-normand"]),
        {
            "preset": "seed",
            "seat_0": bea.pk,
            "seat_1": ada.pk,
            "new_2": "  Cy  ",
            "opt_repique_total": "90",
            "opt_capot_additive": "false",
            "opt_target": "150",
            "title": "Friday",
        },
    )

    match = Match.objects.get()
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert [s.player.name for s in match.seats.order_by("position")] == ["Bea", "Ada", "Cy"]
    assert match.preset == "seed" and match.title == "Friday"
    # Overrides keep their JSON types; the rest is the seed preset.
    assert match.options["repique_total"] == 90 and match.options["target"] == 150
    assert match.options["capot_additive"] is False and match.options["sets_exclude_aces"] is True
    assert list(match.scorers.all()) == [user]
    assert Player.objects.get(name="Cy").created_by == user
    assert AuditEntry.objects.filter(action="player_create", player__name="Cy").exists()


def test_a_game_with_several_seat_counts_takes_the_filled_seats(signed_in, make_players):
    players = make_players("Ada", "Bea", "Cy", "Di")

    signed_in.post(
        reverse("match-new-game", args=["cul"]),
        {"preset": "classic", **{f"seat_{i}": p.pk for i, p in enumerate(players)}},
    )

    assert Match.objects.get().seats.count() == 4


def test_an_auto_option_takes_auto_or_a_number(signed_in, make_players):
    players = make_players("Ada", "Bea", "Cy")
    seats = {f"seat_{i}": p.pk for i, p in enumerate(players)}

    refused = signed_in.post(
        reverse("match-new-game", args=["bastard"]), {"preset": "classic", **seats, "opt_hands": "many"}
    )
    created = signed_in.post(
        reverse("match-new-game", args=["bastard"]), {"preset": "classic", **seats, "opt_hands": "5"}
    )

    assert refused.status_code == 400
    assert "hands must be" in refused.context["form"].errors["opt_hands"][0]
    assert created.status_code == 302 and Match.objects.get().options["hands"] == 5


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"seat_0": "A"}, None, "played by 2 players, not 1"),
        ({"seat_0": "A", "seat_1": "A"}, None, "only once"),
        ({"seat_0": "A", "new_0": "Zed", "seat_1": "B"}, "new_0", "not both"),
        ({"seat_0": "A", "seat_2": "B"}, None, "played by 2 players"),
        ({"seat_0": "A", "seat_1": "B", "opt_deals": "0"}, "opt_deals", "greater than or equal to 1"),
        ({"seat_0": "A", "seat_1": "B", "preset": "house"}, "preset", "Select a valid choice"),
    ],
)
def test_a_refused_match_says_why_and_creates_nothing(signed_in, make_players, data, field, message):
    ids = {p.name: p.pk for p in make_players("A", "B")}
    data = {"preset": "classic", **{k: ids.get(v, v) for k, v in data.items()}}

    response = signed_in.post(reverse("match-new-game", args=["piquet"]), data)

    assert response.status_code == 400
    form = response.context["form"]
    errors = form.errors.get(field or "__all__", [])
    assert any(message in e for e in errors), form.errors
    assert not Match.objects.exists()


def test_a_refused_match_leaves_no_new_player_behind(signed_in, make_players):
    (ada,) = make_players("Ada")

    response = signed_in.post(
        reverse("match-new-game", args=["bastard"]),
        {"preset": "classic", "seat_0": ada.pk, "new_1": "Bo", "new_2": "Cy", "opt_hands": "lots"},
    )

    assert response.status_code == 400
    assert not Player.objects.filter(name__in=["Bo", "Cy"]).exists()
    assert response.context["form"]["new_1"].value() == "Bo"  # kept for the next try


# -- the seats' player lists -----------------------------------------------------------------------
def test_a_seats_player_list_is_the_stock_select_with_its_value_chosen_and_names_escaped():
    """PlayerSelect writes its options itself (for speed): the same markup as Django's Select."""
    import re

    from django import forms
    from django.forms.renderers import DjangoTemplates

    from scorekeeper.matches.forms.base import WIDGETS_RENDERER
    from scorekeeper.matches.forms.match import PlayerSelect

    choices = [("", "— choose —"), ("1", 'Ada <&> "A"'), ("2", "Zoë"), ("10", "Cy"), ('x"&<', "Odd")]
    attrs = {"id": "id_seat_0", "aria-describedby": "id_seat_0_error", "aria-invalid": "true"}

    def attributes_sorted(html):
        return re.sub(r"<select ([^>]*)>", lambda m: "<select " + " ".join(sorted(m[1].split())) + ">", html)

    # The stock widget as Django's own template engine draws it, and as the pages' forms' renderer
    # (Jinja2) does: the same, but a quote in a name written &#34; rather than &quot;.
    for value in (None, "", "10", 2):
        ours = PlayerSelect(choices=choices).render("seat_0", value, attrs)
        for renderer in (DjangoTemplates(), WIDGETS_RENDERER):
            stock = forms.Select(choices=choices).render("seat_0", value, attrs, renderer=renderer)
            stock = re.sub(r">\s+<", "><", stock.strip()).replace("&#34;", "&quot;")
            assert attributes_sorted(ours) == attributes_sorted(stock)
    chosen = PlayerSelect(choices=choices).render("seat_0", "10", {})
    assert '<option value="10" selected>Cy</option>' in chosen and chosen.count("selected") == 1
    assert "Ada &lt;&amp;&gt; &quot;A&quot;" in chosen


def test_the_seats_shared_player_list_draws_each_seat_as_its_own_list_would():
    """The seats share one PlayerChoices (normalized and escaped once): a value chosen in one
    seat marks that seat's list only, and each is the markup a plain list of choices gives."""
    from scorekeeper.matches.forms.match import PlayerChoices, PlayerSelect

    pairs = [("", "— choose —"), ("1", 'Ada <&> "A"'), ("2", "Zoë"), ("10", "Cy")]
    shared = PlayerChoices(pairs)
    for value in ("10", None, "", "2", "10", "3"):
        ours = PlayerSelect(choices=shared).render("seat_1", value, {"id": "id_seat_1"})
        assert ours == PlayerSelect(choices=list(pairs)).render("seat_1", value, {"id": "id_seat_1"})
    assert PlayerSelect(choices=shared).render("seat_0", "10", {}).count(" selected") == 1
    assert list(shared) == pairs


def test_the_new_match_page_lists_every_player_in_each_seat(signed_in, make_players):
    make_players("Ada", "Bea <b>", "Cy")

    body = signed_in.get(reverse("match-new-game", args=["piquet"])).content.decode()

    for seat in ("seat_0", "seat_1"):
        select = body[body.index(f'<select name="{seat}"') :].split("</select>")[0]
        assert [name for name in ("Ada", "Bea &lt;b&gt;", "Cy") if f">{name}</option>" in select] == [
            "Ada",
            "Bea &lt;b&gt;",
            "Cy",
        ]


def test_a_score_sheet_entered_afterwards_is_given_the_day_it_was_played(signed_in, make_players):
    ada, bea = make_players("Ada", "Bea")
    url = reverse("match-new-game", args=["piquet"])
    seats = {"preset": "classic", "seat_0": ada.pk, "seat_1": bea.pk}

    future = signed_in.post(url, {**seats, "played_at": "2999-01-01T20:00"})
    assert future.status_code == 400 and not Match.objects.exists()
    assert "cannot be in the future" in future.content.decode()

    response = signed_in.post(url, {**seats, "played_at": "2026-11-20T21:30"})
    match = Match.objects.get()
    assert response.status_code == 302
    assert timezone.localtime(match.played_at).strftime("%Y-%m-%d %H:%M") == "2026-11-20 21:30"
    sheet = signed_in.get(match.get_absolute_url()).content.decode()
    assert f'<time datetime="{timezone.localtime(match.played_at).isoformat()}' in sheet
