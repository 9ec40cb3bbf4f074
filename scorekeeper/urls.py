from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("api/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switcher on every page
    # Sign-in for the pages (scorers at the table); the API uses tokens.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="home"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("accounts/", include("scorekeeper.accounts.urls")),  # the settings page
    path("clubs/", include("scorekeeper.matches.club_urls")),  # the clubs' pages
    path("", include("scorekeeper.matches.urls")),
    path("", include("ratings.urls")),  # the leaderboards and the player profiles
]

# The API answers crashes in its JSON error shape (and unknown URLs, see api/urls.py); the
# pages keep Django's.
handler404 = "api.exceptions.api_not_found"
handler500 = "api.exceptions.api_server_error"
