from allauth.account import views as account_views
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

# The admin signs in through the site's own sign-in, with its second factor (django-allauth).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("api/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switcher on every page
    # Sign-in for the pages (scorers at the table), django-allauth's; the API uses tokens.
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", account_views.LogoutView.as_view(), name="logout"),
    # The settings page, sign-up from an invitation, closing one's account.
    path("accounts/", include("scorekeeper.accounts.urls")),
    # Sign-up, verification, password reset and change, email change, two-factor sign-in
    # (/accounts/2fa/), one's sessions (/accounts/sessions/).
    path("accounts/", include("allauth.urls")),
    path("clubs/", include("scorekeeper.matches.club_urls")),  # the clubs' pages
    path("", include("scorekeeper.matches.urls")),
    path("", include("ratings.urls")),  # the leaderboards and the player profiles
]

# The API answers crashes in its JSON error shape (and unknown URLs, see api/urls.py); the
# pages keep Django's.
handler404 = "api.exceptions.api_not_found"
handler500 = "api.exceptions.api_server_error"
